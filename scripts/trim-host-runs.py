#!/usr/bin/env python3
"""Copies results files of other host classes into the tree, trimmed to what the tests read.

    /usr/bin/python3 scripts/trim-host-runs.py SRC_DIR [DEST_DIR]

SRC_DIR holds one folder per host class of `*.json.xz` results files written by perfgate (the
shared folder's host-runs/); DEST_DIR (default tests/data/host-runs) receives the same folders
and names. Each scenario keeps everything `perfgate baseline check` and `baseline update` read
(run, host, samples and their metrics, comparisons, gates, summaries, fingerprints); its time
series and what each sample reported beside its metrics (`series`, the samples' `extra`) are
dropped, which takes a file of 1 MB compressed (9 MB of JSON) to about 130 kB. The file still passes docs/results.schema.json; `trimmed` in its run says what
was removed, so nobody mistakes it for a whole run."""
import json
import lzma
import pathlib
import shutil
import sys


def trim(doc: dict) -> dict:
    for s in doc["scenarios"]:
        s.pop("series", None)
        for x in s.get("samples", []):
            x.pop("extra", None)
    doc["run"]["trimmed"] = "scripts/trim-host-runs.py: series and the samples' extra fields removed"
    return doc


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    src = pathlib.Path(sys.argv[1])
    dest = pathlib.Path(sys.argv[2] if len(sys.argv) == 3 else pathlib.Path(__file__).resolve().parents[1] /
                        "tests" / "data" / "host-runs")
    files = sorted(src.glob("*/*.json.xz"))
    if not files:
        print(f"trim-host-runs: no */*.json.xz under {src}", file=sys.stderr)
        return 2
    for f in files:
        out = dest / f.parent.name / f.name
        out.parent.mkdir(parents=True, exist_ok=True)
        doc = trim(json.loads(lzma.decompress(f.read_bytes())))
        out.write_bytes(lzma.compress(json.dumps(doc, indent=1, sort_keys=True).encode(), preset=9))
        print(f"{out}: {out.stat().st_size // 1024} kB (from {f.stat().st_size // 1024} kB)")
    if (src / "README.md").exists():
        shutil.copy(src / "README.md", dest / "README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
