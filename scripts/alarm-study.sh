#!/usr/bin/env bash
# False-alarm and detection rates of `perfgate ab` with its defaults on this machine, on a
# CPU-bound pair (tests/tools/burn): N identical pairs (every exit 1 is a false alarm), N pairs
# per injected slowdown (+5%; +2% with --noise 1; +1% with --noise 0.5; every exit 1 is a
# catch), and N pairs whose AFTER does half the work then sleeps longer than the half it saved
# (every exit 1 is the guard or the wall gate doing its job). Prints counts, seconds per pair
# and the load average. Extra arguments go to every `perfgate ab` (e.g. --duet, --metric cpu_ms).
#   scripts/alarm-study.sh [N] [perfgate ab flags...]      # the full study: N=100 on a quiet machine
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-20}"; shift || true
pg="$root/build/bin/perfgate"; burn="$root/build/tests/tools/burn"
work=25000000
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# study NAME EXTRA_FLAGS BEFORE AFTER [ab flags...]: N pairs, prints exit-1 count and seconds per pair.
study() {
  local name="$1" flags="$2" before="$3" after="$4" hits=0 start end i rc
  local tag="${name%% *}"; tag="${tag//[^A-Za-z0-9]/_}"
  shift 4
  start=$(date +%s.%N)
  for i in $(seq 1 "$n"); do
    # shellcheck disable=SC2086
    "$pg" ab --quiet --shell --seed "$i" --before "$before" --after "$after" $flags --json "$out/$tag-$i.json" "$@" \
      >/dev/null 2>"$out/$tag-$i.err"
    rc=$?
    [ "$rc" -eq 1 ] && hits=$((hits + 1))
    [ "$rc" -gt 1 ] && echo "$name run $i exited $rc: $(tail -1 "$out/$tag-$i.err")" >&2
  done
  end=$(date +%s.%N)
  printf '%-34s %3d of %d exit 1   %.1f s per pair\n' "$name" "$hits" "$n" "$(echo "($end - $start) / $n" | bc -l)"
}
shift_args=("$@")
study "A/A (false alarms)" "" "$burn $work same" "$burn $work same" "${shift_args[@]}"
study "+5% work (caught)" "" "$burn $work same" "$burn $((work * 105 / 100)) same" "${shift_args[@]}"
study "+2% work, --noise 1 (caught)" "--noise 1" "$burn $work same" "$burn $((work * 102 / 100)) same" "${shift_args[@]}"
study "+1% work, --noise 0.5 (caught)" "--noise 0.5" "$burn $work same" "$burn $((work * 101 / 100)) same" "${shift_args[@]}"
study "half work + longer sleep (fails)" "" "$burn $work same" "$burn $((work / 2)) same && sleep 0.04" "${shift_args[@]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
