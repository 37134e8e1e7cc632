#!/bin/bash
# One point by hand: server CPU per request and req/s, server pinned to core 0, perfgate-load
# (32 connections, closed loop) to core 1; 1 s warm-up, then 3 s measured. Server CPU is
# utime + stime of the process from /proc/PID/stat over the measured run, ÷ responses.
#
#   tools/cpu_per_request.sh BUILD FIXTURE CACHE CAPACITY MIX [perfgate-load flags, e.g. --gzip]
#   tools/cpu_per_request.sh build /tmp/ac_fix none 0 uniform --gzip
set -euo pipefail
BUILD=$1 FIX=$2 CACHE=$3 CAP=$4 MIX=$5
shift 5
OUT=$(mktemp)
trap 'kill -TERM $SP 2>/dev/null || true; rm -f "$OUT"' EXIT
taskset -c 0 "$BUILD/share/perfgate/scenarios/asset_cache/asset_cache" serve --variant m --fixture "$FIX" \
  --listen 127.0.0.1:0 --cache "$CACHE" --capacity "$CAP" >"$OUT" &
SP=$!
for _ in $(seq 100); do grep -q listen "$OUT" && break; sleep 0.1; done
PORT=$(sed 's/.*:\([0-9]*\)".*/\1/' "$OUT")
LOAD=("$BUILD/bin/perfgate-load" --port "$PORT" --urls "$FIX/urls.txt" --mix "$MIX" -c 32 --cpus 1 "$@")
"${LOAD[@]}" -d 1 >/dev/null
c0=$(awk '{print $14 + $15}' "/proc/$SP/stat")
RES=$("${LOAD[@]}" -d 3)
c1=$(awk '{print $14 + $15}' "/proc/$SP/stat")
STATS=$(curl -s "127.0.0.1:$PORT/_stats")
/usr/bin/python3 - "$RES" "$c0" "$c1" "$(getconf CLK_TCK)" "$STATS" <<'PY'
import json, sys
r, c0, c1, tck, st = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), json.loads(sys.argv[5])
cpu = (c1 - c0) / tck
looked = st["hits"] + st["misses"]
print(f"req/s {r['rps']:.0f}  server CPU {cpu:.2f} s  {cpu * 1e6 / r['responses']:.1f} us/request  "
      f"hit ratio {st['hits'] / looked if looked else 0:.2f}  load thread {r['client_cpu_s'] / r['client_wall_s']:.0%} of its core")
PY
