#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster from the installed server binaries and
# prints its URL. Usage:
#   scripts/pg-throwaway.sh start DIR   -> prints postgres://… on stdout
#   scripts/pg-throwaway.sh stop DIR
# The cluster runs as the "postgres" user when invoked as root (PostgreSQL
# refuses to run as root), listens on 127.0.0.1 on a free port, and keeps
# everything under DIR.
set -euo pipefail

cmd=${1:?start or stop}
dir=${2:?directory}

bindir=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && bindir=$d
done
[ -n "$bindir" ] || { echo "no PostgreSQL server binaries found (apt-get install postgresql)" >&2; exit 1; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$*"
  else
    sh -c "$*"
  fi
}

case "$cmd" in
start)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  as_pg "'$bindir/initdb' -D '$dir/data' -U postgres --auth=trust -E UTF8 --no-sync >'$dir/initdb.log' 2>&1"
  as_pg "'$bindir/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -t 60 -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200\" start >/dev/null"
  as_pg "'$bindir/createdb' -h 127.0.0.1 -p $port -U postgres fairbalance_test"
  echo "$port" >"$dir/port"
  echo "postgres://postgres@127.0.0.1:$port/fairbalance_test?sslmode=disable"
  ;;
stop)
  if [ -d "$dir/data" ]; then
    as_pg "'$bindir/pg_ctl' -D '$dir/data' -m fast -w stop >/dev/null 2>&1" || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
