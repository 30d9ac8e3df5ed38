#!/usr/bin/env bash
# Load benchmarks of the identity service against a fresh instance of
# bin/fairbalance on SQLite, driven by wrk from the same machine.
# Prints: start-up time to a healthy /api/health (fresh and existing data
# directory), idle RSS, password sign-in rate, GET /user and refresh rates.
# Rate limits are turned off: they would (correctly) throttle one address.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
BIN=${BIN:-bin/fairbalance}
PORT=${PORT:-18090}
DUR=${DUR:-15s}
URL="http://127.0.0.1:$PORT"
dir=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$dir"' EXIT

start() {
  local t0 t1
  t0=$(date +%s%N)
  "$BIN" serve --addr "127.0.0.1:$PORT" --data-dir "$dir" --rate-limits=false --access-log=false >"$dir/server.log" 2>&1 &
  pid=$!
  until curl -sf "$URL/api/health" >/dev/null 2>&1; do sleep 0.002; done
  t1=$(date +%s%N)
  took=$(( (t1 - t0) / 1000000 ))
}

start; first=$took; kill $pid; wait $pid 2>/dev/null || true
start; second=$took
echo "start-up to healthy /api/health: fresh data dir ${first} ms, existing data dir ${second} ms"
sleep 3; kill -0 $pid 2>/dev/null || { echo "server exited:"; cat "$dir/server.log"; exit 1; }
echo "idle RSS: $(awk '/VmRSS/ {printf "%.1f MB", $2/1024}' /proc/$pid/status)"

eval "$("$BIN" keys --json --data-dir "$dir" | python3 -c 'import json,sys; k=json.load(sys.stdin); print("export ANON_KEY=%s SERVICE_KEY=%s" % (k["anon_key"], k["service_role_key"]))')"
export BENCH_EMAIL="bench@example.com" BENCH_PASSWORD="Bench-Passw0rd"
curl -sf -X POST "$URL/auth/v1/admin/users" -H "apikey: $SERVICE_KEY" -H "Authorization: Bearer $SERVICE_KEY" \
  -H 'Content-Type: application/json' -d "{\"email\":\"$BENCH_EMAIL\",\"password\":\"$BENCH_PASSWORD\",\"email_confirm\":true}" >/dev/null

signin() {
  curl -sf -X POST "$URL/auth/v1/token?grant_type=password" -H "apikey: $ANON_KEY" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$BENCH_EMAIL\",\"password\":\"$BENCH_PASSWORD\"}"
}

echo
echo "== password sign-in (argon2id m=19 MiB t=2 p=1), 8 connections"
wrk -t2 -c8 -d"$DUR" --latency -s bench/signin.lua "$URL" | grep -E 'Requests/sec|Latency|99%|Non-2xx'

echo
echo "== GET /auth/v1/user, 64 connections"
ACCESS=$(signin | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
wrk -t2 -c64 -d"$DUR" --latency -H "apikey: $ANON_KEY" -H "Authorization: Bearer $ACCESS" "$URL/auth/v1/user" | grep -E 'Requests/sec|Latency|99%|Non-2xx'

echo
echo "== POST /auth/v1/token?grant_type=refresh_token (rotation), 32 connections"
export TOKENS_FILE="$dir/tokens.txt"
: >"$TOKENS_FILE"
for i in $(seq 96); do signin | python3 -c 'import json,sys; print(json.load(sys.stdin)["refresh_token"])' >>"$TOKENS_FILE"; done
wrk -t2 -c32 -d"$DUR" --latency -s bench/refresh.lua "$URL" -- 2 | grep -E 'Requests/sec|Latency|99%|Non-2xx'
