"""A user catalog of tiny scenarios for the end-to-end tests of baselines, CI outputs, shards,
batches and branch comparison: each scenario is a shell script speaking the scenario contract
around tests/tools/burn, so BEFORE and AFTER do a chosen amount of real CPU work with the same
output, and the test-only flag --slower makes AFTER do more."""
import json
import pathlib

# About 20 ms of CPU on this kind of machine.
WORK = 12_000_000

SCRIPT = """#!/bin/sh
# Scenario contract: PROGRAM run --variant V --profile P --fixture F --params JSON [--slower]
variant=""; n=""
while [ $# -gt 0 ]; do
  case "$1" in
    --variant) variant="$2"; shift ;;
    --slower) n={slower} ;;
  esac
  shift
done
if [ -z "$n" ]; then
  case "$variant" in before) n={before} ;; *) n={after} ;; esac
fi
{burn} "$n" same >/dev/null || exit 1
echo '{{"digest": "same", "metrics": {{"work": {{"value": '"$n"', "unit": "count", "better": "lower"}}}}}}'
"""


def add_scenario(catalog, burn, name="spin", before=WORK, after=WORK // 2, slower=int(WORK * 0.8),
                 policy="improve", metric="cpu_ms", rounds=10, guard=None):
    d = pathlib.Path(catalog) / name
    d.mkdir(parents=True, exist_ok=True)
    script = d / "spin.sh"
    script.write_text(SCRIPT.format(burn=burn, before=before, after=after, slower=slower))
    script.chmod(0o755)
    manifest = {
        "name": name, "title": f"{name}: burn {before} vs {after}", "kind": "batch", "program": "spin.sh",
        "policy": policy, "primary_metric": metric,
        "variants": [{"name": "before"}, {"name": "after"}],
        "profiles": {"quick": {"params": {}, "min_rounds": rounds, "max_rounds": rounds, "warmup": 1}},
    }
    if guard is not None:
        manifest["guard"] = guard
    (d / "scenario.json").write_text(json.dumps(manifest))
    return d
