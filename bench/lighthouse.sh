#!/usr/bin/env bash
# Lighthouse (desktop preset) on /login and on the Command Center (/) of a
# fresh instance of bin/fairbalance, in Debian's Chromium. Prints the
# performance and accessibility scores and the initial JavaScript of /login.
# The signed-in run keeps the browser's storage (--disable-storage-reset)
# after a session was put where the app keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
BIN=${BIN:-bin/fairbalance}
PORT=${PORT:-18091}
CDP=${CDP:-9339}
URL="http://127.0.0.1:$PORT"
LIGHTHOUSE=${LIGHTHOUSE:-lighthouse@12.8.2}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
dir=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null || true; done; sleep 0.5; rm -rf "$dir" 2>/dev/null || true' EXIT

"$BIN" serve --addr "127.0.0.1:$PORT" --data-dir "$dir/data" --rate-limits=false --access-log=false >"$dir/server.log" 2>&1 &
pids+=($!)
until curl -sf "$URL/api/health" >/dev/null 2>&1; do sleep 0.05; done

eval "$("$BIN" keys --json --data-dir "$dir/data" | python3 -c 'import json,sys; k=json.load(sys.stdin); print("export ANON_KEY=%s SERVICE_KEY=%s" % (k["anon_key"], k["service_role_key"]))')"
svc=(-H "apikey: $SERVICE_KEY" -H "Authorization: Bearer $SERVICE_KEY" -H 'Content-Type: application/json')
email="lighthouse@example.com"; password="Lighthouse-Passw0rd"
org=$(curl -sf -X POST "$URL/rest/v1/orgs" "${svc[@]}" -H 'Prefer: return=representation' -d '{"name":"Lighthouse Pharma"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
uid=$(curl -sf -X POST "$URL/auth/v1/admin/users" "${svc[@]}" -d "{\"email\":\"$email\",\"password\":\"$password\",\"email_confirm\":true}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -sf -X PATCH "$URL/rest/v1/profiles_v2?id=eq.$uid" "${svc[@]}" -d "{\"org_id\":\"$org\",\"role\":\"admin\",\"full_name\":\"Light House\"}" >/dev/null
session=$(curl -sf -X POST "$URL/auth/v1/token?grant_type=password" -H "apikey: $ANON_KEY" -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"password\":\"$password\"}")

"$CHROME_PATH" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync \
  --remote-debugging-port="$CDP" --user-data-dir="$dir/chrome" about:blank >/dev/null 2>&1 &
pids+=($!)
until curl -sf "http://127.0.0.1:$CDP/json/version" >/dev/null 2>&1; do sleep 0.1; done

run() { # name url [extra flags]
  local name=$1 url=$2; shift 2
  npx -y "$LIGHTHOUSE" "$url" --port="$CDP" --preset=desktop --only-categories=performance,accessibility \
    --output=json --output-path="$dir/$name.json" --quiet "$@" >/dev/null
  python3 - "$dir/$name.json" "$name" ${VERBOSE:+v} <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["categories"]; a = r["audits"]
scripts = [i for i in a["network-requests"]["details"]["items"] if i.get("resourceType") == "Script"]
js = sum(i.get("transferSize", 0) for i in scripts)
body = sum(i.get("resourceSize", 0) for i in scripts)
print(f'{sys.argv[2]}: performance {round(c["performance"]["score"]*100)}, accessibility {round(c["accessibility"]["score"]*100)}, '
      f'LCP {a["largest-contentful-paint"]["displayValue"]}, TBT {a["total-blocking-time"]["displayValue"]}, '
      f'JavaScript {len(scripts)} files, {js/1024:.1f} KB transferred ({body/1024:.1f} KB uncompressed)')
if len(sys.argv) > 3:
    for i in scripts: print(f'  {i["url"].rsplit("/",1)[-1]}: {i.get("transferSize",0)/1024:.1f} KB')
PY
}

run login "$URL/login"
# Put the session where the app keeps it, then audit the signed-in home page.
(cd web && SESSION="$session" CDP="$CDP" URL="$URL" node --input-type=module -e '
import { chromium } from "playwright-core";
const browser = await chromium.connectOverCDP(`http://127.0.0.1:${process.env.CDP}`);
const page = await browser.contexts()[0].newPage();
await page.goto(`${process.env.URL}/health`);
await page.evaluate((s) => localStorage.setItem("fairbalance.auth", s), process.env.SESSION);
// A cold HTTP cache, as for a first visit; only the session is kept.
const cdp = await page.context().newCDPSession(page);
await cdp.send("Network.clearBrowserCache");
await page.close();
await browser.close();
')
run home "$URL/" --disable-storage-reset
