#!/usr/bin/env bash
# Where the hot loop of tests/layout/ lands, per layout seed (docs/layout.md, issue 39).
# Builds the program once per seed through harness/tools/layout/perfgate-layout-cc (the link
# goes on to perfgate-layout-ld), and once without a seed, and prints per build: the order of
# the two objects with code in .text, hot_sum's address, the loop head (the target of the
# loop's backward jump) and the backward jump itself, each also modulo 64, and the program's
# output, which must be the same on every line.
#   scripts/layout-placements.sh [SEED...]       # default: seeds 1 to 8
#   scripts/layout-placements.sh --pad           # the issue's experiment, no launcher: an
#                                                # unused function of N bytes in front (hot.c PAD)
#   scripts/layout-placements.sh --runtime       # tests/layout/where.c: stack, heap and code
#                                                # modulo 4096 over runs, ASLR on and off, with
#                                                # environments of 0 to 100 more bytes
# CC picks the compiler (default gcc).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cc="${CC:-gcc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# hot_sum's address, the loop head and the backward jump, from objdump.
loop_of() {
  local line start="" in=0 a t
  while IFS= read -r line; do
    if [[ $line =~ ^([0-9a-f]+)\ \<hot_sum\>: ]]; then in=1; start=$((16#${BASH_REMATCH[1]})); continue; fi
    [[ -z $line ]] && in=0
    if ((in)) && [[ $line =~ ^\ *([0-9a-f]+):[[:space:]]+j[a-z]+\ +([0-9a-f]+)\ \< ]]; then
      a=$((16#${BASH_REMATCH[1]})) t=$((16#${BASH_REMATCH[2]}))
      if ((t <= a && t >= start)); then
        printf '%-7x %-7x %4d   %-7x %4d' "$start" "$t" $((t % 64)) "$a" $((a % 64))
        return
      fi
    fi
  done < <(objdump -d --no-show-raw-insn "$1")
  echo "no backward jump in hot_sum" >&2
  return 1
}

# Which of digest.o and hot.o the linker put first.
order_of() {
  local d h
  d=$(nm "$1" | awk '$3 == "print_digest" {print $1}')
  h=$(nm "$1" | awk '$3 == "hot_sum" {print $1}')
  if [[ $((16#$d)) -lt $((16#$h)) ]]; then echo "digest,hot"; else echo "hot,digest"; fi
}

report() {  # NAME DIR
  printf '%-9s %-11s %s   %s\n' "$1" "$(order_of "$2/hot")" "$(loop_of "$2/hot")" "$("$2/hot")"
}

if [[ ${1:-} == --runtime ]]; then
  "$cc" -O2 "$root/tests/layout/where.c" -o "$work/where"
  for aslr in on off; do
    for pad in 0 1 8 16 100; do
      run=("$work/where") && [[ $aslr == off ]] && run=(setarch "$(uname -m)" -R "$work/where")
      printf 'ASLR %-3s env +%-3s  %s\n' "$aslr" "$pad" "$(env -i "PAD=$(printf "%${pad}s" "")" "${run[@]}")"
    done
  done
  exit 0
fi

printf '%-9s %-11s %-7s %-7s %4s   %-7s %4s   %s\n' build objects hot_sum head mod64 jump mod64 output
if [[ ${1:-} == --pad ]]; then
  for pad in 0 8 16 24 32 40 48 56; do
    d="$work/pad$pad" && mkdir "$d"
    make -s -f "$root/tests/layout/Makefile" OUT="$d" CC="$cc" CFLAGS="-O2 -DPAD=$pad"
    report "pad=$pad" "$d"
  done
  exit 0
fi
seeds=("$@")
[[ ${#seeds[@]} -gt 0 ]] || seeds=(1 2 3 4 5 6 7 8)
for seed in none "${seeds[@]}"; do
  d="$work/$seed" && mkdir "$d"
  [[ $seed == none ]] && s="" || s="$seed"
  PERFGATE_LAYOUT_SEED="$s" make -s -f "$root/tests/layout/Makefile" OUT="$d" \
    CC="$root/harness/tools/layout/perfgate-layout-cc $cc"
  report "seed=$seed" "$d"
done
