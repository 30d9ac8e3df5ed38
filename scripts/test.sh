#!/usr/bin/env bash
# The whole test suite, as `make test` and CI run it:
#   go vet; go test -race on SQLite and PostgreSQL; web lint, type check and
#   unit tests; the supabase-js conformance suite against the real binary
#   (storage and content also with files in an in-memory S3 fake);
#   the Playwright end-to-end suite in Chromium against the real binary.
# It installs what it needs: npm packages (npm ci), Debian's chromium when
# missing and, when TEST_DATABASE_URL is unset, a throwaway PostgreSQL
# cluster from the installed server binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fairbalance-test.XXXXXX")
chmod 755 "$tmp"
pgdir="$tmp/pg"
cleanup() {
  if [ -d "$pgdir" ]; then "$root/scripts/pg-throwaway.sh" stop "$pgdir" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    step "installing PostgreSQL server binaries"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  step "starting a throwaway PostgreSQL"
  TEST_DATABASE_URL=$("$root/scripts/pg-throwaway.sh" start "$pgdir")
  export TEST_DATABASE_URL
fi
echo "PostgreSQL for tests: $TEST_DATABASE_URL"

step "web: npm ci"
(cd web && npm ci --no-audit --no-fund --loglevel=error)
step "web: build"
(cd web && npm run build)

# npm packages may ship .go files; they are not ours.
pkgs=$(go list ./... | grep -v /node_modules/)

step "go vet"
go vet $pkgs

step "go test -race (SQLite and PostgreSQL)"
go test -race -count=1 -timeout 60m $pkgs

step "web: lint and unit tests"
(cd web && npm run lint && npm test)

step "build bin/fairbalance"
go build -o bin/fairbalance ./cmd/fairbalance

step "conformance: supabase-js against the real binary (SQLite and PostgreSQL)"
(cd conformance && npm ci --no-audit --no-fund --loglevel=error && FAIRBALANCE_BIN="$root/bin/fairbalance" npm test)

step "conformance: storage and content with files in an S3-compatible store (in-memory fake)"
go build -o bin/s3fake ./bench/s3fake
s3log=$(mktemp)
bin/s3fake -bucket fairbalance >"$s3log" 2>&1 &
s3pid=$!
for _ in $(seq 50); do grep -q '^http://' "$s3log" && break; sleep 0.1; done
s3url=$(grep -m1 '^http://' "$s3log" || true)
if [ -z "$s3url" ]; then cat "$s3log"; kill "$s3pid" 2>/dev/null; exit 1; fi
s3status=0
(cd conformance && CONFORMANCE_S3_ENDPOINT="$s3url" FAIRBALANCE_BIN="$root/bin/fairbalance" \
  node --test --test-concurrency=1 tests/12-storage.test.mjs tests/13-content.test.mjs) || s3status=$?
kill "$s3pid" 2>/dev/null || true
rm -f "$s3log"
[ "$s3status" -eq 0 ] || exit "$s3status"

if [ ! -x /usr/bin/chromium ]; then
  step "installing chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
step "end-to-end: Playwright in Chromium against the real binary"
(cd web && FAIRBALANCE_BIN="$root/bin/fairbalance" CI=1 npx playwright test)
step "done"
