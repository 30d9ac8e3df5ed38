-- wrk script: POST /auth/v1/token?grant_type=refresh_token with real rotation.
-- Each refresh token is used exactly once: a request takes a token from the
-- thread's pool and its response puts the rotated token back. Start with
-- more tokens than connections (bench/run.sh writes them to tokens.txt).
local pool = {}
local anon = os.getenv("ANON_KEY")
local errors = 0

local threads = 0
function setup(thread)
  thread:set("part", threads)
  threads = threads + 1
end

function init(args)
  -- Each thread takes its own share of the tokens (n threads, this is part k).
  local n, k = tonumber(args[1]), part
  local i = 0
  for line in io.lines(os.getenv("TOKENS_FILE")) do
    if i % n == k then table.insert(pool, line) end
    i = i + 1
  end
  wrk.method = "POST"
  wrk.path = "/auth/v1/token?grant_type=refresh_token"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["apikey"] = anon
end

function request()
  local t = table.remove(pool)
  if t == nil then
    return wrk.format("GET", "/api/health")
  end
  return wrk.format(nil, nil, nil, '{"refresh_token":"' .. t .. '"}')
end

function response(status, headers, body)
  local t = string.match(body, '"refresh_token":"([a-z0-9]+)"')
  if t then table.insert(pool, t) elseif status ~= 200 then errors = errors + 1 end
end
