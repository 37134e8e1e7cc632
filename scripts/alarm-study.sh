#!/usr/bin/env bash
# False-alarm and detection rates of `perfgate ab` with its defaults on this machine, on a
# CPU-bound pair (tests/tools/burn): N identical pairs (every exit 1 is a false alarm), N pairs
# per injected slowdown (+5%; +2% with --noise 1; +1% with --noise 0.5; every exit 1 is a
# catch), and N pairs per trade of CPU for waiting, with --metric cpu_ms so only the wall guard
# can catch them (and the half-work trade once more with ab's defaults, whose metric choice sees
# the waiting) (half the work then a sleep of 60% of BEFORE's wall, longer than the half
# saved; 80% of the work then a sleep of 30% of BEFORE's wall, BEFORE's wall as perfgate
# measures it): every exit 1 is the guard doing its job; and N A/A pairs of two real Debian
# programs, ~2 ms (zstd -dc of 2 MB) and ~200 ms (gzip -dc of 50 MB), on the text
# scripts/vs-hyperfine.sh generates (every exit 1 is a false alarm); and the three answers of
# issue 38 on a real ~20 ms command (zstd -dc of 5 MB of that text) against itself, beside
# hyperfine's default run of the same pair, and on +3% work. Prints, per study, how many runs
# ended worse (exit 1), cannot tell (exit 5) and otherwise (exit 0: the same or better), the
# median seconds per pair and the load average. Extra arguments go to every `perfgate ab`.
#   scripts/alarm-study.sh [N] [perfgate ab flags...]       # the full study: N=100 on a quiet machine
#   STUDY=aa-loaded scripts/alarm-study.sh [N]             # A/A only, a CPU-bound loop on the other core
#   STUDY=aa|plus5|plus3|plus2|plus1|trades|real|aa20 scripts/alarm-study.sh [N]   # one part
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-20}"; shift || true
part="${STUDY:-all}"
pg="$root/build/bin/perfgate"; burn="$root/build/tests/tools/burn"
work=25000000
out="$(mktemp -d)"
loader=""
cleanup() { [ -n "$loader" ] && kill "$loader" 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# study NAME EXTRA_FLAGS BEFORE AFTER [ab flags...]: N pairs, prints exit-1 count and seconds per pair.
study() {
  local name="$1" flags="$2" before="$3" after="$4" worse=0 cannot=0 other=0 start i rc
  local tag="${name%% *}"; tag="${tag//[^A-Za-z0-9]/_}"
  shift 4
  : >"$out/$tag.seconds"
  for i in $(seq 1 "$n"); do
    start=$(date +%s.%N)
    # PERFGATE_CANNOT_TELL=fail: a CI job's environment must not turn cannot tell into exit 0 here.
    # shellcheck disable=SC2086
    PERFGATE_CANNOT_TELL=fail "$pg" ab --quiet --seed "$i" --before "$before" --after "$after" $flags \
      --json "$out/$tag-$i.json" "$@" >/dev/null 2>"$out/$tag-$i.err"
    rc=$?
    echo "$(date +%s.%N) - $start" | bc -l >>"$out/$tag.seconds"
    case "$rc" in
      0) other=$((other + 1)) ;;
      1) worse=$((worse + 1)) ;;
      5) cannot=$((cannot + 1)) ;;
      *) echo "$name run $i exited $rc: $(tail -1 "$out/$tag-$i.err")" >&2 ;;
    esac
  done
  printf '%-44s of %d: %3d worse (exit 1) %3d cannot tell (exit 5) %3d exit 0   median %.1f s per pair\n' \
    "$name" "$n" "$worse" "$cannot" "$other" "$(sort -g "$out/$tag.seconds" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')"
}
extra=("$@")
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }
if [ "$part" = aa-loaded ]; then
  # The other core: every CPU this process may use except the one ab picks (the last).
  cpus="$(taskset -pc $$ | sed 's/.*: //')"
  "$burn" 100000000000 loaded >/dev/null &
  loader=$!
  taskset -pc "${cpus%%[-,]*}" "$loader" >/dev/null
  study "A/A, other core busy (false alarms)" "" "$burn $work same" "$burn $work same" "${extra[@]}"
fi
want aa && study "A/A (false alarms)" "" "$burn $work same" "$burn $work same" "${extra[@]}"
want plus5 && study "+5% work (caught)" "" "$burn $work same" "$burn $((work * 105 / 100)) same" "${extra[@]}"
want plus3 && study "+3% work (caught)" "" "$burn $work same" "$burn $((work * 103 / 100)) same" "${extra[@]}"
want plus2 && study "+2% work, --noise 1 (caught)" "--noise 1" "$burn $work same" "$burn $((work * 102 / 100)) same" "${extra[@]}"
want plus1 && study "+1% work, --noise 0.5 (caught)" "--noise 0.5" "$burn $work same" "$burn $((work * 101 / 100)) same" "${extra[@]}"
if want trades; then
  # BEFORE's wall as perfgate measures it now (a loaded VM stretches it several times over),
  # so the sleeps are a share of it whatever the load.
  "$pg" ab --quiet --shell --metric cpu_ms --min-rounds 3 --max-rounds 3 --before "$burn $work same" \
    --after "$burn $work same" --json "$out/probe.json" >/dev/null 2>&1
  wall_s="$(/usr/bin/python3 -c 'import json, statistics, sys
s = json.load(open(sys.argv[1]))["scenarios"][0]["samples"]
print(statistics.median(x["metrics"]["wall_ms"]["value"] for x in s if not x["warmup"]) / 1000)' "$out/probe.json")"
  study "half work + 60% wall sleep, cpu_ms (fails)" "--shell --metric cpu_ms" "$burn $work same" \
    "$burn $((work / 2)) same && sleep $(echo "$wall_s * 0.6" | bc -l)" "${extra[@]}"
  study "half work + 60% wall sleep, defaults (fails)" "--shell" "$burn $work same" \
    "$burn $((work / 2)) same && sleep $(echo "$wall_s * 0.6" | bc -l)" "${extra[@]}"
  study "80% work + 30% wall sleep, cpu_ms (fails)" "--shell --metric cpu_ms" "$burn $work same" \
    "$burn $((work * 8 / 10)) same && sleep $(echo "$wall_s * 0.3" | bc -l)" "${extra[@]}"
fi
if want real; then
  "$root/scripts/vs-hyperfine.sh" --corpus-only "$out/corpus"
  study "A/A zstd -dc 2 MB, ~2 ms (false alarms)" "" "zstd -dc $out/corpus-2ms.zst" "zstd -dc $out/corpus-2ms.zst" \
    "${extra[@]}"
  study "A/A gzip -dc 50 MB, ~200 ms (false alarms)" "" "gzip -dc $out/corpus.gz" "gzip -dc $out/corpus.gz" \
    "${extra[@]}"
fi
if want aa20; then
  # A real ~20 ms command against itself; hyperfine's default run of the same pair beside it
  # (at least 10 runs and 3 s per command, one warm-up as ab does).
  "$root/scripts/vs-hyperfine.sh" --corpus-only "$out/corpus"
  head -c 5000000 "$out/corpus" | zstd -q -f -o "$out/corpus-20ms.zst"
  cmd="zstd -dc $out/corpus-20ms.zst"
  start=$(date +%s.%N)
  hyperfine -N --warmup 1 --style none "$cmd" "$cmd" >"$out/hyperfine.txt" 2>&1 || cat "$out/hyperfine.txt" >&2
  printf '%-44s %.1f s (hyperfine -N --warmup 1, both commands)\n' "hyperfine's default run of the pair" \
    "$(echo "$(date +%s.%N) - $start" | bc -l)"
  study "A/A zstd -dc 5 MB, ~20 ms (the same?)" "" "$cmd" "$cmd" "${extra[@]}"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
