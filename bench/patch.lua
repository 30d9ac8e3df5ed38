-- wrk script: a single-row update through the data API (with its audit entry).
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/json"
local n = 0
request = function()
  n = n + 1
  return wrk.format(nil, nil, nil, '{"full_name":"Bench ' .. n .. '"}')
end
