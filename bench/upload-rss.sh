#!/usr/bin/env bash
# Peak RSS of the server across a 50 MB upload, on the local-disk backend
# and on the S3 backend (against bench/s3fake, an in-memory S3 in its own
# process, so that the stored bytes do not count in the server's memory).
# Prints, per backend, the server's peak RSS (VmHWM) after start-up and a
# small warm-up upload, then after the 50 MB upload (streamed by curl,
# sniffed as a PDF, into a bucket of the instance with the service role).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/fairbalance}
FAKE=${FAKE:-}
MB=${MB:-50}
PORT=${PORT:-18093}
URL="http://127.0.0.1:$PORT"
dir=$(mktemp -d)
pid="" fpid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; [ -n "$fpid" ] && kill $fpid 2>/dev/null; rm -rf "$dir"' EXIT
if [ -z "$FAKE" ]; then FAKE="$dir/s3fake"; go build -o "$FAKE" ./bench/s3fake; fi

{ printf '%%PDF-1.4\n'; head -c $((MB * 1000 * 1000 - 9)) /dev/urandom; } >"$dir/big.pdf"
printf '%%PDF-1.4\n%%%%EOF\n' >"$dir/small.pdf"
hwm() { awk '/VmHWM/ {printf "%.1f", $2/1024}' "/proc/$1/status"; }

run() { # backend, extra server args...
  local backend=$1; shift
  local data="$dir/data-$backend"
  mkdir -p "$data"
  local key
  key=$("$BIN" keys --json --data-dir "$data" | sed -n 's/.*"service_role_key": *"\([^"]*\)".*/\1/p')
  "$BIN" serve --addr "127.0.0.1:$PORT" --data-dir "$data" --rate-limits=false --access-log=false "$@" >"$data/server.log" 2>&1 &
  pid=$!
  until curl -sf "$URL/api/health" >/dev/null 2>&1; do sleep 0.01; done
  local h=(-H "apikey: $key" -H "Authorization: Bearer $key")
  curl -sf "${h[@]}" -H 'Content-Type: application/json' -d '{"id":"bench","name":"bench"}' "$URL/storage/v1/bucket" >/dev/null
  curl -sf "${h[@]}" -H 'Content-Type: application/pdf' --data-binary @"$dir/small.pdf" "$URL/storage/v1/object/bench/warm.pdf" >/dev/null
  sleep 0.5
  local before after took
  before=$(hwm $pid)
  local t0; t0=$(date +%s%N)
  curl -sf "${h[@]}" -H 'Content-Type: application/pdf' -T "$dir/big.pdf" -X POST "$URL/storage/v1/object/bench/big.pdf" >/dev/null
  took=$(( ($(date +%s%N) - t0) / 1000000 ))
  after=$(hwm $pid)
  # The bytes came back whole.
  local got want
  got=$(curl -sf "${h[@]}" "$URL/storage/v1/object/bench/big.pdf" | sha256sum | cut -d' ' -f1)
  want=$(sha256sum "$dir/big.pdf" | cut -d' ' -f1)
  [ "$got" = "$want" ] || { echo "$backend: downloaded bytes differ"; exit 1; }
  echo "$backend: ${MB} MB upload in ${took} ms; peak RSS ${before} MB before, ${after} MB after"
  kill $pid; wait $pid 2>/dev/null || true; pid=""
}

run disk
"$FAKE" -addr 127.0.0.1:0 -bucket fairbalance >"$dir/fake.url" &
fpid=$!
until [ -s "$dir/fake.url" ]; do sleep 0.01; done
FAIRBALANCE_S3_SECRET_KEY=bench run s3 --s3-endpoint "$(cat "$dir/fake.url")" --s3-bucket fairbalance --s3-path-style --s3-access-key bench --s3-prefix bench/
