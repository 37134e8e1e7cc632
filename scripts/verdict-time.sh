#!/usr/bin/env bash
# How long `perfgate ab` takes to its verdict beside hyperfine's default run of the same commands
# (issue 48): five real pairs, each timed R times, the two tools alternating so that a drifting
# machine weighs on both alike. hyperfine gives no verdict; its default run (at least 10 runs
# and 3 s per command, one warm-up as ab does, -N: no shell) is the time a hyperfine user waits.
#   A/A zstd      zstd -dc of 5 MB of text (~20 ms) against itself
#   A/A burn      tests/tools/burn of 25 M steps (~25 ms of CPU) against itself
#   +3% burn      25 M against 25.75 M steps
#   wall only     sort -n of 1.5 M numbers against sort -n --parallel=1: the same CPU, more wall
#   reference     --reference burn 25 M, -L w 25 M, 25 M, 25.75 M
# Prints per pair the median seconds of each tool, perfgate's exit codes, and the load.
# VT_VERBOSE=1 also prints each run's two times on stderr.
#   scripts/verdict-time.sh [R=5] [PAIR]   PAIR: one of the names above (quoted), e.g. "A/A zstd"
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps="${1:-5}"
only="${2:-}"
pg="${PERFGATE:-$root/build/bin/perfgate}"; burn="$root/build/tests/tools/burn"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$root/scripts/vs-hyperfine.sh" --corpus-only "$out/corpus" >/dev/null
head -c 5000000 "$out/corpus" | zstd -q -f -o "$out/corpus-20ms.zst"
/usr/bin/python3 -c "import random; r = random.Random(48); print('\n'.join(str(r.randrange(10**9)) for _ in range(1500000)))" \
  >"$out/nums.txt"

seconds() { local start; start=$(date +%s.%N); "$@" >/dev/null 2>&1; echo "$? $(echo "$(date +%s.%N) - $start" | bc -l)"; }
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

# pair NAME HYPERFINE_ARGS... -- PERFGATE_AB_ARGS...
pair() {
  local name="$1"; shift
  [ -n "$only" ] && [ "$only" != "$name" ] && return 0
  local hf=() ab=()
  while [ "$1" != -- ]; do hf+=("$1"); shift; done
  shift; ab=("$@")
  : >"$out/hf"; : >"$out/pg"; local codes=""
  for i in $(seq 1 "$reps"); do
    read -r _ s < <(seconds hyperfine -N --warmup 1 --style none "${hf[@]}")
    echo "$s" >>"$out/hf"
    # PERFGATE_CANNOT_TELL=fail: a CI job's setting must not turn cannot tell into exit 0 here.
    read -r rc s < <(PERFGATE_CANNOT_TELL=fail seconds "$pg" ab --quiet --seed "$i" --json "$out/r.json" "${ab[@]}")
    echo "$s" >>"$out/pg"; codes+=" $rc"; [ -n "${VT_VERBOSE:-}" ] && echo "  run $i: hyperfine $(tail -1 "$out/hf") perfgate $s exit $rc" >&2
  done
  printf '%-12s hyperfine %5.1f s   perfgate %5.1f s   exit codes:%s\n' "$name" \
    "$(median <"$out/hf")" "$(median <"$out/pg")" "$codes"
}

z="zstd -dc $out/corpus-20ms.zst"
pair "A/A zstd" "$z" "$z" -- "$z" "$z"
pair "A/A burn" "$burn 25000000" "$burn 25000000" -- "$burn 25000000" "$burn 25000000"
pair "+3% burn" "$burn 25000000" "$burn 25750000" -- "$burn 25000000" "$burn 25750000"
pair "wall only" "sort -n $out/nums.txt" "sort -n --parallel=1 $out/nums.txt" -- \
  "sort -n $out/nums.txt" "sort -n --parallel=1 $out/nums.txt"
# hyperfine 1.15 has no --reference: it runs the same four commands, listed.
pair "reference" "$burn 25000000" "$burn 25000000" "$burn 25000000" "$burn 25750000" -- \
  --reference "$burn 25000000" -L w 25000000,25000000,25750000 "$burn {w}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
