-- wrk script: password sign-in (POST /auth/v1/token?grant_type=password).
wrk.method = "POST"
wrk.path = "/auth/v1/token?grant_type=password"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["apikey"] = os.getenv("ANON_KEY")
wrk.body = '{"email":"' .. os.getenv("BENCH_EMAIL") .. '","password":"' .. os.getenv("BENCH_PASSWORD") .. '"}'
