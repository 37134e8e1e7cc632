#!/usr/bin/env bash
# False-alarm and detection rate of `perfgate ab` on this machine: N runs of an identical
# CPU-bound pair (every exit 1 is a false alarm) and N runs whose AFTER does 10% more work
# (every exit 1 is a catch). Extra arguments go to every `perfgate ab` (e.g. --metric cpu_ms).
#   scripts/alarm-study.sh [N] [perfgate ab flags...]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-20}"; shift || true
pg="$root/build/bin/perfgate"; burn="$root/build/tests/tools/burn"
work=25000000; heavier=$((work * 11 / 10))
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
alarms=0; caught=0
for i in $(seq 1 "$n"); do
  "$pg" ab --quiet --seed "$i" --before "$burn $work same" --after "$burn $work same" --json "$out/aa-$i.json" "$@" >/dev/null 2>&1
  rc=$?; [ "$rc" -eq 1 ] && alarms=$((alarms + 1)); [ "$rc" -gt 1 ] && echo "run $i (A/A) exited $rc" >&2
  "$pg" ab --quiet --seed "$i" --before "$burn $work same" --after "$burn $heavier same" --json "$out/ab-$i.json" "$@" >/dev/null 2>&1
  rc=$?; [ "$rc" -eq 1 ] && caught=$((caught + 1)); [ "$rc" -gt 1 ] && echo "run $i (+10%) exited $rc" >&2
  printf '\r%d/%d: false alarms %d, caught %d' "$i" "$n" "$alarms" "$caught" >&2
done
echo >&2
echo "identical pair: $alarms false alarms in $n runs; AFTER +10% work: caught $caught of $n"
