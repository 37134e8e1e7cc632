#!/usr/bin/env bash
# What `perfgate gbench` decides where nothing changed, and what code layout alone does, on this
# machine (docs/gbench.md). Two studies of N runs each (default 20), every run with its own seed:
#   aa      the same binary against itself (tests/tools/gbench_a): every exit 1 is a false alarm;
#   layout  gbench_layout against gbench_layout_pad: a's code built without its 64-byte alignment,
#           and the same behind 40 bytes of padding, so every
#           function sits at another address: prints each benchmark's ratios and verdicts;
#   copy    thirteen standard-library benchmarks (tests/tools/gbench_stdlib) against a byte copy
#           of their binary, with perfgate's defaults (its budget and minimum time): every
#           "cannot tell" is a red CI for an unchanged library, every "worse" a false alarm;
#   copy10  the same binary against gbench_stdlib_acc10, BM_Accumulate summing 10% more numbers.
# Prints counts, seconds per run and the load average before and after. Extra arguments go to
# every run after `--` (default for aa and layout --benchmark_min_time=0.02, as
# tests/e2e/test_gbench.py; none for copy and copy10).
# LOAD=build runs every study beside a two-job build of a clone of this repository, rebuilt
# from clean in a loop (what a CI machine shares its CPUs with).
#   scripts/gbench-aa.sh [N] [ARGS for the binaries...]
#   STUDY=aa|layout|copy|copy10 [LOAD=build] scripts/gbench-aa.sh [N]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-20}"; shift || true
args=("$@"); quick=("${args[@]}"); ((${#quick[@]})) || quick=(--benchmark_min_time=0.02)
part="${STUDY:-all}"
pg="$root/build/bin/perfgate"; tools="$root/build/tests/tools"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
if [[ ${LOAD:-} == build ]]; then
  git clone -q "$root" "$out/clone" && cmake -S "$out/clone" -B "$out/clone/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  (while :; do cmake --build "$out/clone/build" -j2 --clean-first >/dev/null 2>&1; done) &
  builder=$!
  trap 'kill $builder 2>/dev/null; pkill -f "$out/clone" 2>/dev/null; sleep 1; rm -rf "$out"' EXIT
  sleep 20  # the build under way before the first run
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# study NAME BEFORE AFTER [ARGS...]: N runs; prints the exit codes counted, seconds per run, and
# per benchmark the range of ratios and the verdicts.
study() {
  local name="$1" before="$2" after="$3" start end i rc
  shift 3
  local -A codes=()
  start=$(date +%s.%N)
  for i in $(seq 1 "$n"); do
    "$pg" gbench --quiet --seed "$i" --before "$before" --after "$after" --json "$out/$name-$i.json" \
      -- "$@" >/dev/null 2>"$out/$name-$i.err"
    rc=$?
    codes[$rc]=$(( ${codes[$rc]:-0} + 1 ))
    [ "$rc" -gt 1 ] && echo "$name run $i exited $rc: $(tail -1 "$out/$name-$i.err")" >&2
  done
  end=$(date +%s.%N)
  local summary=""
  for rc in "${!codes[@]}"; do summary+=" exit $rc: ${codes[$rc]}/$n;"; done
  printf '%-7s%s %.1f s per run\n' "$name" "$summary" "$(echo "($end - $start) / $n" | bc -l)"
  /usr/bin/python3 - "$out" "$name" <<'PY'
import json, pathlib, sys
out, name = pathlib.Path(sys.argv[1]), sys.argv[2]
by = {}
for f in sorted(out.glob(f"{name}-*.json")):
    for c in json.loads(f.read_text())["scenarios"][0]["comparisons"]:
        if c["gated"]:
            by.setdefault(c["metric"], []).append((c["ratio"], c["verdict"]))
for metric, runs in by.items():
    ratios = sorted(r for r, _ in runs)
    words = ("worse", "better", "the same", "not worse", "cannot tell")
    verdicts = {v: sum(1 for _, x in runs if x == v) for v in words}
    print(f"  {metric:22} ratio median {ratios[len(ratios) // 2]:.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}]  "
          + ", ".join(f"{v} {verdicts[v]}" for v in words))
PY
}

[[ $part == all || $part == aa ]] && study aa "$tools/gbench_a" "$tools/gbench_a" "${quick[@]}"
[[ $part == all || $part == layout ]] && study layout "$tools/gbench_layout" "$tools/gbench_layout_pad" "${quick[@]}"
if [[ $part == all || $part == copy || $part == copy10 ]]; then
  cp "$tools/gbench_stdlib" "$out/gbench_stdlib_copy"
  [[ $part != copy10 ]] && study copy "$tools/gbench_stdlib" "$out/gbench_stdlib_copy" "${args[@]}"
  [[ $part != copy ]] && study copy10 "$tools/gbench_stdlib" "$tools/gbench_stdlib_acc10" "${args[@]}"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
