-- wrk script: a single-row insert through the data API (an audit entry).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"action":"bench.event","object_type":"asset","object_id":"1","meta":{"k":1}}'
