#!/usr/bin/env bash
# perfgate beside hyperfine on real Debian programs (issue 26; docs/hyperfine.md): zstd, lz4 and
# gzip on a generated ~50 MB text file, a ~2 ms command, a ~200 ms one and /bin/true. Both tools
# run the commands without a shell (hyperfine -N), stdout to /dev/null (both tools' default),
# one warm-up run, N runs per command; the two tools alternate, R times over, and every figure is
# a median against a median: hyperfine's `median` of its runs, perfgate's wall_ms median (and
# its paired wall ratio, and the gated ratio of ab's defaults). The last lines check the figures
# issue 26 asks for and print the load average: on a shared machine figures mean little
# without it.
#   scripts/vs-hyperfine.sh [N=15] [R=3]
#   scripts/vs-hyperfine.sh --corpus-only PATH     # write PATH (+ .zst .gz .lz4, PATH-2ms.zst) and stop
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pg="${PERFGATE:-$root/build/bin/perfgate}"

# A text of words drawn from a fixed vocabulary (seeded): compresses like prose, ~3x with zstd.
make_corpus() {
  local path="$1"
  /usr/bin/python3 - "$path" <<'PY'
import random, sys
r = random.Random(26)
words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 10))) for _ in range(5000)]
out, n = [], 0
while n < 50_000_000:
    line = " ".join(r.choice(words) for _ in range(12)) + "\n"
    out.append(line)
    n += len(line)
open(sys.argv[1], "w").write("".join(out))
PY
  zstd -q -f "$path" -o "$path.zst"
  gzip -c "$path" >"$path.gz"
  lz4 -q -f "$path" "$path.lz4"
  head -c 2000000 "$path" | zstd -q -f -o "$path-2ms.zst"
}

if [ "${1:-}" = --corpus-only ]; then
  make_corpus "$2"
  exit 0
fi
n="${1:-15}"
reps="${2:-3}"
command -v hyperfine >/dev/null || { echo "vs-hyperfine: hyperfine is missing (scripts/setup.sh installs it)" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(hyperfine --version); perfgate $("$pg" --version)"
echo "generating the corpus ..."
make_corpus "$dir/corpus"
cd "$dir"

# name|before|after: each pair, run R times by each tool, alternating.
pairs=(
  "zstd A/A|zstd -dc corpus.zst|zstd -dc corpus.zst"
  "gzip -> zstd|gzip -dc corpus.gz|zstd -dc corpus.zst"
  "zstd -> lz4|zstd -dc corpus.zst|lz4 -dc corpus.lz4"
  "zstd -> --no-check|zstd -dc corpus.zst|zstd -dc --no-check corpus.zst"
  "~2 ms A/A|zstd -dc corpus-2ms.zst|zstd -dc corpus-2ms.zst"
  "~200 ms A/A|gzip -dc corpus.gz|gzip -dc corpus.gz"
  "/bin/true|/bin/true|/bin/true"
)
for p in "${pairs[@]}"; do
  IFS='|' read -r name before after <<<"$p"
  tag="${name//[^A-Za-z0-9]/_}"
  for r in $(seq 1 "$reps"); do
    la="$(cut -d' ' -f1 /proc/loadavg)"
    hyperfine -N --output=null --warmup 1 --runs "$n" --export-json "hf-$tag-$r.json" "$before" "$after" \
      >/dev/null 2>&1
    "$pg" ab --quiet --warmup 1 --runs "$n" --output null --json "pg-$tag-$r.json" "$before" "$after" \
      >/dev/null 2>"pg-$tag-$r.err" || true
    echo "$name|$r|$la" >>runs.txt
  done
done

/usr/bin/python3 - "$n" <<'PY'
import json, statistics, sys
n = sys.argv[1]
rows, checks = [], []
med = statistics.median
by = {}
for line in open("runs.txt"):
    name, r, la = line.strip().split("|")
    tag = "".join(c if c.isalnum() else "_" for c in name)
    hf = json.load(open(f"hf-{tag}-{r}.json"))["results"]
    doc = json.load(open(f"pg-{tag}-{r}.json"))
    s = doc["scenarios"][0]
    def pg_median(v, m):
        return med(x["metrics"][m]["value"] for x in s["samples"] if x["variant"] == v and not x["warmup"])
    comp = {c["metric"]: c for c in s["comparisons"] if c["variant"] == "after"}
    gated = [c for c in s["comparisons"] if c["gated"]]
    g = gated[0] if gated else None
    rec = dict(load=la, exit=doc["outcome"]["exit_code"],
               hf_b=hf[0]["median"] * 1e3, hf_a=hf[1]["median"] * 1e3,
               pg_b=pg_median("before", "wall_ms"), pg_a=pg_median("after", "wall_ms"),
               pg_cpu_b=pg_median("before", "cpu_ms"), pg_cpu_a=pg_median("after", "cpu_ms"),
               pg_hl=comp["wall_ms"]["ratio"], gated=(g["metric"], g["ratio"], g["verdict"]) if g else None)
    by.setdefault(name, []).append(rec)
    print(f"{name:20s} rep {r}  hyperfine {rec['hf_b']:8.2f} -> {rec['hf_a']:8.2f} ms ({rec['hf_a'] / rec['hf_b']:.3f}x)   "
          f"perfgate wall {rec['pg_b']:8.2f} -> {rec['pg_a']:8.2f} ms ({rec['pg_a'] / rec['pg_b']:.3f}x, paired {rec['pg_hl']:.3f}x)  "
          f"cpu {rec['pg_cpu_b']:8.2f} -> {rec['pg_cpu_a']:8.2f}  gated {rec['gated'][0] if rec['gated'] else '-'} "
          f"{rec['gated'][1]:.3f}x {rec['gated'][2] if rec['gated'] else ''}  exit {rec['exit']}  load {la}")

print(f"\nMedians over the repetitions ({n} runs per command per repetition):")
print(f"{'pair':20s} {'hyperfine B':>12s} {'perfgate B':>11s} {'B diff':>7s} {'hf ratio':>9s} {'pg ratio':>9s} "
      f"{'diff':>6s} {'gated ratio':>18s}")
for name, recs in by.items():
    hb, pb = med(r["hf_b"] for r in recs), med(r["pg_b"] for r in recs)
    hr, pr = med(r["hf_a"] / r["hf_b"] for r in recs), med(r["pg_a"] / r["pg_b"] for r in recs)
    gm = recs[0]["gated"][0] if recs[0]["gated"] else "-"
    gr = med(r["gated"][1] for r in recs if r["gated"]) if recs[0]["gated"] else float("nan")
    print(f"{name:20s} {hb:10.2f}ms {pb:9.2f}ms {pb / hb - 1:+6.1%} {hr:8.3f}x {pr:8.3f}x {pr / hr - 1:+5.1%} "
          f"{gm:>8s} {gr:.3f}x")
    if name == "zstd A/A":
        checks.append((f"zstd -dc: perfgate wall median within 3% of hyperfine's ({pb / hb - 1:+.1%})", abs(pb / hb - 1) <= 0.03))
    if name in ("gzip -> zstd", "zstd -> lz4", "zstd -> --no-check"):
        checks.append((f"{name}: wall ratio within 5% of hyperfine's ({pr / hr - 1:+.1%})", abs(pr / hr - 1) <= 0.05))
        checks.append((f"{name}: gated ratio {gr:.3f}x in hyperfine's direction ({hr:.3f}x)", (gr - 1) * (hr - 1) > 0))
    if name == "/bin/true":
        over = med(r["pg_cpu_b"] - r["pg_b"] for r in recs)
        checks.append((f"/bin/true: cpu_ms - wall_ms median {over:+.3f} ms, at most +0.2 ms", over <= 0.2))
    if name in ("~2 ms A/A", "~200 ms A/A", "zstd A/A"):
        checks.append((f"{name}: perfgate exits 0 in every repetition ({[r['exit'] for r in recs]})",
                       all(r["exit"] == 0 for r in recs)))
print()
for what, ok in checks:
    print(("PASS " if ok else "FAIL ") + what)
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
