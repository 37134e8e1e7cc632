#!/usr/bin/env bash
# Which layouts (docs/layout.md, issue 50 step 2): builds bzip2 from source K ways with each way
# of making layouts and measures the layout spread each gives with `perfgate ab --layouts K`,
# both sides the same K builds (an A/A over layouts: the spread is what counts).
#   none     control: the plain build copied K times; its spread is what noise alone gives
#   cc       perfgate-layout-cc/-ld: each translation unit padded, the objects reordered,
#            PERFGATE_LAYOUT_SEED=1..K (K compiles and K links)
#   shuffle  -ffunction-sections, linked by lld with --shuffle-sections='*=SEED', SEED=1..K
#            (one compile, K links)
#   both     the launchers and the shuffle together (K compiles and K links)
# Per method it prints the seconds to build K layouts, how many distinct addresses modulo 64 the
# hottest function (mainSort) takes, how many distinct triples modulo 64 the three hottest
# (mainSort, mainGtU, generateMTFValues) take, the spreads of BEFORE and AFTER, and the seconds
# the measurement took. The machine's drift between layouts, which run one after another, looks
# like a layout spread; so the measurement runs twice, the second time with the builds in reverse
# order, and r_again is the correlation over builds of their medians (both sides together) in the
# two passes: near 1 when the builds themselves differ in speed, near 0 or below when the spread
# is drift or noise. VERBOSE=1 adds the placements and the medians per build.
# kept3 is how many of the K layouts keep all three functions' places modulo 64 when the source
# changes elsewhere (one unused function appended to bzip2.c) and is rebuilt with the same seed:
# what pairs layout k of BEFORE with layout k of AFTER in `ab --layouts`.
# Every build must compress the input to the same bytes as the plain build.
#
# usage: scripts/layout-methods.sh [-k K] [-r ROUNDS] [-m METHODS] [--no-measure] BZIP2_SRC
#   BZIP2_SRC  bzip2 1.0.8's source, e.g. from Debian 12: `apt-get source bzip2` (needs a
#              deb-src line) unpacks it as bzip2-1.0.8/
#   -k K       layouts per method (default 8)         -r ROUNDS  paired rounds per layout (5)
#   -m LIST    methods, comma-separated (default none,cc,shuffle,both)
#   --no-measure  build, check and count placements only
# Environment: PG, perfgate's build or install folder (default: this checkout's build/);
# CC (default gcc); INPUT_MB, the size of the generated text to compress (default 4).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { sed -n '/^# usage:/,/^# Environment/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

k=8 rounds=5 methods=none,cc,shuffle,both measure=1
while [[ $# -gt 0 ]]; do
  case $1 in
    -k) [[ $# -ge 2 ]] || usage; k=$2; shift 2 ;;
    -r) [[ $# -ge 2 ]] || usage; rounds=$2; shift 2 ;;
    -m) [[ $# -ge 2 ]] || usage; methods=$2; shift 2 ;;
    --no-measure) measure=0; shift ;;
    -h|--help) usage ;;
    -*) echo "layout-methods.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || usage
[[ -d $1 ]] || { echo "layout-methods.sh: $1: no such folder" >&2; exit 2; }
src="$(cd "$1" && pwd)"
[[ $k =~ ^[0-9]+$ && $k -ge 2 && $rounds =~ ^[0-9]+$ && $rounds -ge 2 ]] || usage
units=(blocksort huffman crctable randtable compress decompress bzlib bzip2)  # upstream's link order
for u in "${units[@]}"; do
  [[ -f $src/$u.c ]] || { echo "layout-methods.sh: $src/$u.c missing: not bzip2's source" >&2; exit 2; }
done
pg="${PG:-$root/build}"
launcher="$pg/libexec/perfgate/perfgate-layout-cc"
[[ -x $launcher ]] || { echo "layout-methods.sh: $launcher missing: build perfgate first" >&2; exit 2; }
[[ $measure == 0 || -x $pg/bin/perfgate ]] || { echo "layout-methods.sh: $pg/bin/perfgate missing" >&2; exit 2; }
cc="${CC:-gcc}"
cflags=(-O2 -D_FILE_OFFSET_BITS=64)  # upstream's CFLAGS without -g and warnings
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
distinct() { printf '%s\n' "$@" | sort -u | wc -l; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Text to compress: words of bzip2's manual, drawn with Zipf-like weights from a fixed seed.
/usr/bin/env python3 - "$src/manual.xml" "$((${INPUT_MB:-4} * 1000000))" > "$work/input.txt" <<'EOF'
import itertools, random, re, sys
words = sorted(set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", open(sys.argv[1], encoding="latin-1").read())))
size, r = int(sys.argv[2]), random.Random(1)
r.shuffle(words)
cum = list(itertools.accumulate(1.0 / (i + 1) for i in range(len(words))))
out, n = [], 0
while n < size:
    line = " ".join(r.choices(words, cum_weights=cum, k=r.randint(4, 14))) + "\n"
    out.append(line)
    n += len(line)
sys.stdout.write("".join(out)[:size])
EOF

# $CCX is the compiler command (the launcher and the compiler, or the compiler); SEED empty: none.
compile() {  # DIR SEED EXTRA_CFLAGS...
  local dir=$1 seed=$2 u; shift 2
  mkdir -p "$dir"
  for u in "${units[@]}"; do
    PERFGATE_LAYOUT_SEED="$seed" $CCX "${cflags[@]}" "$@" -c "$src/$u.c" -o "$dir/$u.o"
  done
}
link() {  # OBJDIR OUT SEED EXTRA_LDFLAGS...
  local objs=() u dir=$1 out=$2 seed=$3; shift 3
  for u in "${units[@]}"; do objs+=("$dir/$u.o"); done
  PERFGATE_LAYOUT_SEED="$seed" $CCX "${cflags[@]}" "$@" "${objs[@]}" -o "$out"
}

# Address of a function (static ones may carry a .isra/.part suffix), modulo 64.
mod64() {  # BINARY NAME
  nm "$1" | awk -v f="$2" '($3 == f || index($3, f ".") == 1) && !done { print $1; done = 1 }' |
    { read -r a && echo $((16#$a % 64)); }
}

CCX="$cc" compile "$work/plain" "" && CCX="$cc" link "$work/plain" "$work/plain/bzip2" ""
# The unrelated change: bzip2.c (not the hot code's file) with one unused function appended.
mkdir "$work/changed"
cp "$src/bzip2.c" "$work/changed/bzip2.c"
printf '\nint layout_methods_unused(int x) { return x * 7 + 3; }\n' >> "$work/changed/bzip2.c"
# relink_changed OBJDIR OUTDIR SEED EXTRA_FLAGS... : OBJDIR's objects with the changed bzip2.c.
relink_changed() {
  local from=$1 to=$2 seed=$3; shift 3
  mkdir -p "$to" && cp "$from"/*.o "$to"/
  PERFGATE_LAYOUT_SEED="$seed" $CCX "${cflags[@]}" "-I$src" "$@" -c "$work/changed/bzip2.c" -o "$to/bzip2.o"
}
trio() {  # BINARY
  echo "$(mod64 "$1" mainSort)/$(mod64 "$1" mainGtU)/$(mod64 "$1" generateMTFValues)"
}
want=$("$work/plain/bzip2" -9 -c "$work/input.txt" | sha256sum)

printf '%-8s %3s %8s %10s %10s %6s %8s %8s %7s %9s\n' \
  method K build_s hot_mod64 hot3_mod64 kept3 spread_B spread_A r_again measure_s
IFS=, read -r -a ms <<< "$methods"
for m in "${ms[@]}"; do
  d="$work/$m"
  mkdir -p "$d"
  t0=$(now)
  case $m in
    none) for s in $(seq "$k"); do mkdir -p "$d/$s" && cp "$work/plain/bzip2" "$d/$s/bzip2"; done ;;
    cc) for s in $(seq "$k"); do
          CCX="$launcher $cc" compile "$d/$s" "$s" && CCX="$launcher $cc" link "$d/$s" "$d/$s/bzip2" "$s"
        done ;;
    shuffle) CCX="$cc" compile "$d/obj" "" -ffunction-sections
        for s in $(seq "$k"); do
          mkdir -p "$d/$s"
          CCX="$cc" link "$d/obj" "$d/$s/bzip2" "" -fuse-ld=lld "-Wl,--shuffle-sections=*=$s"
        done ;;
    both) for s in $(seq "$k"); do
          CCX="$launcher $cc" compile "$d/$s" "$s" -ffunction-sections
          CCX="$launcher $cc" link "$d/$s" "$d/$s/bzip2" "$s" -fuse-ld=lld "-Wl,--shuffle-sections=*=$s"
        done ;;
    *) echo "layout-methods.sh: unknown method $m (none, cc, shuffle, both)" >&2; exit 2 ;;
  esac
  build_s=$(since "$t0")
  hot=() hot3=() kept=0
  for s in $(seq "$k"); do
    b="$d/$s/bzip2" x="$d/changed-$s"
    case $m in
      none) CCX="$cc" relink_changed "$work/plain" "$x" "" && CCX="$cc" link "$x" "$x/bzip2" "" ;;
      cc) CCX="$launcher $cc" relink_changed "$d/$s" "$x" "$s" && CCX="$launcher $cc" link "$x" "$x/bzip2" "$s" ;;
      shuffle) CCX="$cc" relink_changed "$d/obj" "$x" "" -ffunction-sections
        CCX="$cc" link "$x" "$x/bzip2" "" -fuse-ld=lld "-Wl,--shuffle-sections=*=$s" ;;
      both) CCX="$launcher $cc" relink_changed "$d/$s" "$x" "$s" -ffunction-sections
        CCX="$launcher $cc" link "$x" "$x/bzip2" "$s" -fuse-ld=lld "-Wl,--shuffle-sections=*=$s" ;;
    esac
    for bin in "$b" "$x/bzip2"; do
      got=$("$bin" -9 -c "$work/input.txt" | sha256sum)
      [[ $got == "$want" ]] || { echo "layout-methods.sh: $bin compresses differently" >&2; exit 1; }
    done
    hot+=("$(mod64 "$b" mainSort)")
    hot3+=("$(trio "$b")")
    [[ $(trio "$b") != "$(trio "$x/bzip2")" ]] || kept=$((kept + 1))
  done
  sb=- sa=- corr=- meas_s=- medians=
  if ((measure)); then
    mkdir "$d/reversed"
    for s in $(seq "$k"); do ln -s "../$((k + 1 - s))" "$d/reversed/$s"; done
    t0=$(now)
    for pass in reversed forward; do  # forward last: its layouts.json gives the spreads
      [[ $pass == forward ]] && p="$m" || p="$m/reversed"
      (cd "$work" && "$pg/bin/perfgate" ab --quiet --layouts "$k" --layout-rounds "$rounds" --cannot-tell pass \
         --before "./$p/{layout}/bzip2 -9 -c input.txt" --after "./$p/{layout}/bzip2 -9 -c input.txt" \
         > "$work/$m.out" 2>&1) || { cat "$work/$m.out" >&2; exit 1; }
      [[ $pass == forward ]] || mv "$work/perfgate-out/layouts.json" "$work/$m-reversed.json"
    done
    meas_s=$(since "$t0")
    # The forward pass's spreads, and the correlation over builds of the two passes' medians.
    read -r sb sa corr medians < <(/usr/bin/env python3 -c '
import json, statistics, sys
fwd, rev = (json.load(open(f))["layouts"] for f in sys.argv[1:3])
e = fwd["effect"]
one = [(r["before_median"] * r["after_median"]) ** 0.5 for r in fwd["runs"]]
two = [(r["before_median"] * r["after_median"]) ** 0.5 for r in reversed(rev["runs"])]
m1, m2 = statistics.mean(one), statistics.mean(two)
cov = sum((x - m1) * (y - m2) for x, y in zip(one, two))
den = (sum((x - m1) ** 2 for x in one) * sum((y - m2) ** 2 for y in two)) ** 0.5
print("%.2f%% %.2f%% %s %s:%s" % (100 * e["spread_before"], 100 * e["spread_after"],
      "%.2f" % (cov / den) if den else "-", fwd["metric"],
      ",".join("%.0f/%.0f" % p for p in zip(one, two))))' "$work/perfgate-out/layouts.json" "$work/$m-reversed.json")
    rm -rf "$work/perfgate-out"
  fi
  printf '%-8s %3s %8s %10s %10s %6s %8s %8s %7s %9s\n' "$m" "$k" "$build_s" \
    "$(distinct "${hot[@]}")" "$(distinct "${hot3[@]}")" "$kept/$k" "$sb" "$sa" "$corr" "$meas_s"
  if [[ -n ${VERBOSE:-} ]]; then
    echo "  mainSort/mainGtU/generateMTFValues mod 64: ${hot3[*]}"
    [[ -z $medians ]] || echo "  medians per build, forward pass/reversed pass, ${medians%%:*}: ${medians#*:}"
  fi
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), family" \
  "$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) CPUs;" \
  "$("$cc" --version | head -1); $(ld.lld --version | head -1)"
