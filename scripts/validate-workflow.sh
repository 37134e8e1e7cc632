#!/usr/bin/env bash
# Checks a GitHub Actions workflow, by default docs/examples/github-actions.yml (docs/ci.md,
# "The example workflow"):
#   1. action-validator (npm's @action-validator/cli): the file against the workflow schema;
#   2. yamllint: the YAML itself;
#   3. shellcheck: every `run:` script, as bash, with each ${{ }} expression replaced by a word;
#   4. the example's rules: pull_request (never pull_request_target), permissions contents: read
#      (more only on a job), concurrency per PR with cancel-in-progress, timeout-minutes on every
#      job, actions pinned to a commit, no always(), no self-hosted job without the fork guard;
#   5. every `build/bin/perfgate SUBCOMMAND` in a `run:` script: the subcommand exists and each
#      option is one that `perfgate SUBCOMMAND --help` lists — of a command family such as `history`,
#      `perfgate history add --help` (needs a build: PERFGATE_BIN, else build/bin/perfgate; without
#      one this check says it was skipped and the exit is 1).
# Installs what is missing: Debian packages (yamllint, shellcheck, python3-yaml; npm when there is
# no npm) with apt-get,
# the validator with npm into $PERFGATE_TOOLS (default ~/.cache/perfgate-tools).
# Usage: scripts/validate-workflow.sh [WORKFLOW.yml]     exit 0 every check passed, 1 one failed,
# 2 a tool could not be installed or the file is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
workflow="${1:-$root/docs/examples/github-actions.yml}"
tools="${PERFGATE_TOOLS:-$HOME/.cache/perfgate-tools}"
validator_version=0.6.0
perfgate_bin="${PERFGATE_BIN:-$root/build/bin/perfgate}"

die() { echo "validate-workflow: $*" >&2; exit 2; }
[ -f "$workflow" ] || die "no such file: $workflow"
workflow="$(cd "$(dirname "$workflow")" && pwd)/$(basename "$workflow")"

# Debian packages, as scripts/setup.sh installs them: apt-get only when something is missing.
missing=()
for p in yamllint shellcheck python3-yaml; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm)  # Debian's npm, unless a nodejs package brought its own
if ((${#missing[@]})); then
  echo "validate-workflow: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } ||
    die "could not install ${missing[*]} with apt-get"
fi

validator="$tools/node_modules/.bin/action-validator"
installed="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
  "$tools/node_modules/@action-validator/cli/package.json" 2>/dev/null || true)"
if [ ! -x "$validator" ] || [ "$installed" != "$validator_version" ]; then
  echo "validate-workflow: installing @action-validator/cli@$validator_version into $tools" >&2
  mkdir -p "$tools"
  npm install --silent --no-audit --no-fund --prefix "$tools" "@action-validator/cli@$validator_version" >/dev/null ||
    die "npm could not install @action-validator/cli@$validator_version into $tools"
fi

failed=0
step() {  # NAME COMMAND...: run a check, say how it went
  local name="$1"; shift
  local out rc=0
  out="$("$@" 2>&1)" || rc=$?
  if ((rc == 0)); then echo "ok      $name"; else echo "FAILED  $name (exit $rc)"; failed=1; fi
  [ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/        /'
  return 0
}

echo "validate-workflow: $workflow"
step "action-validator $validator_version (workflow schema)" "$validator" "$workflow"
step "yamllint" yamllint -s -d '{extends: default, rules: {line-length: {max: 140}, document-start: disable,
  truthy: {check-keys: false}, comments: {min-spaces-from-content: 1}}}' "$workflow"

rules() {
  /usr/bin/python3 - "$workflow" "$perfgate_bin" <<'EOF'
import os, re, subprocess, sys, tempfile
import yaml

path, perfgate = sys.argv[1], sys.argv[2]
text = open(path).read()
wf = yaml.safe_load(text)
problems, notes = [], []
on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
events = on if isinstance(on, (dict, list)) else [on]
if "pull_request" not in events:
    problems.append("on: no pull_request trigger")
if "pull_request_target" in events:
    problems.append("on: pull_request_target runs a fork's code with this repository's token")
if wf.get("permissions") != {"contents": "read"}:
    problems.append(f"permissions: {wf.get('permissions')!r}, not {{contents: read}}")
conc = wf.get("concurrency") or {}
if "pull_request.number" not in str(conc.get("group", "")) or conc.get("cancel-in-progress") is not True:
    problems.append("concurrency: a group per pull request with cancel-in-progress: true is needed")
if "always()" in text:
    problems.append("always(): also runs on cancel; use success() || failure()")
fork_guard = "github.event.pull_request.head.repo.full_name == github.repository"
for name, job in wf["jobs"].items():
    if "timeout-minutes" not in job:
        problems.append(f"jobs.{name}: no timeout-minutes")
    runs_on = job.get("runs-on", [])
    runs_on = runs_on if isinstance(runs_on, list) else [runs_on]
    if "self-hosted" in runs_on and fork_guard not in str(job.get("if", "")):
        problems.append(f"jobs.{name}: a self-hosted job without `if: {fork_guard}`")
    extra = {k: v for k, v in (job.get("permissions") or {}).items() if v != "read" and k != "contents"}
    uses = " ".join(s.get("uses", "") for s in job.get("steps", []))
    if extra and not (set(extra) == {"checks"} and "action-junit-report" in uses):
        problems.append(f"jobs.{name}: write permissions {extra} beyond the JUnit publisher's checks: write")
for line in text.splitlines():
    m = re.search(r"uses:\s*(\S+)", line)
    if m and not m.group(1).startswith("./") and not re.search(r"@[0-9a-f]{40}\s+#\s*v\d", line):
        problems.append(f"not pinned to a commit (with a # vX comment): {line.strip()}")

# shellcheck every run: script, as the runner runs it (bash -e -o pipefail), expressions replaced.
scripts = []
for name, job in wf["jobs"].items():
    for i, s in enumerate(job.get("steps", [])):
        if "run" in s:
            scripts.append((f"jobs.{name}.steps[{i}] ({s.get('name', s['run'].splitlines()[0])})", s["run"]))
with tempfile.TemporaryDirectory() as tmp:
    for where, body in scripts:
        f = os.path.join(tmp, "step.sh")
        with open(f, "w") as out:
            out.write("#!/bin/bash\nset -eo pipefail\n" + re.sub(r"\$\{\{.*?\}\}", "EXPR", body) + "\n")
        # SC2153, SC2154: the variables come from the workflow's env, which shellcheck cannot see
        r = subprocess.run(["shellcheck", "-s", "bash", "-e", "SC2153,SC2154", "-f", "gcc", f],
                           capture_output=True, text=True)
        if r.returncode:
            problems.append(f"shellcheck {where}:\n" + r.stdout.replace(f + ":", "  line ").rstrip())

# perfgate's own commands: the subcommand and each option must be ones perfgate accepts.
calls = []
for where, body in scripts:
    joined = re.sub(r"\\\n\s*", " ", body)
    for m in re.finditer(r"build/bin/perfgate\s+([a-z-]+)(?:\s+([a-z][a-z-]*)(?![^\s|;&]))?([^\n|;&]*)", joined):
        calls.append((where, m.group(1), m.group(2), re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", m.group(3))))
if not calls:
    problems.append("no `build/bin/perfgate ...` command in any run: script")
elif not os.access(perfgate, os.X_OK):
    problems.append(f"{perfgate}: not built, so {len(calls)} perfgate commands were not checked "
                    "(build first, or PERFGATE_BIN=...)")
else:
    top = subprocess.run([perfgate, "--help"], capture_output=True, text=True).stdout
    subcommands = set(re.findall(r"^  ([a-z][\w-]*)  ", top.split("Subcommands:", 1)[-1], re.M))
    helps = {}

    def help_of(*words):
        if words not in helps:
            helps[words] = subprocess.run([perfgate, *words, "--help"], capture_output=True, text=True).stdout
        return helps[words]

    for where, sub, word, flags in calls:
        if sub not in subcommands:
            problems.append(f"{where}: perfgate has no subcommand {sub!r} (it has: {' '.join(sorted(subcommands))})")
            continue
        # A command family (`perfgate history add ...`): the options are its inner subcommand's.
        inner = set(re.findall(r"^  ([a-z][\w-]*)  ", help_of(sub).split("Subcommands:", 1)[1], re.M)) \
            if "Subcommands:" in help_of(sub) else set()
        if inner and word not in inner:
            problems.append(f"{where}: perfgate {sub} has no subcommand {word!r} (it has: {' '.join(sorted(inner))})")
            continue
        words = (sub, word) if inner else (sub,)
        known = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_of(*words)))
        bad = [f for f in flags if f not in known]
        if bad:
            problems.append(f"{where}: perfgate {' '.join(words)} does not accept {' '.join(bad)}")
        notes.append(f"perfgate {' '.join(words)} {' '.join(flags)}")
for n in notes:
    print("  accepted: " + n)
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
EOF
}
step "shellcheck of the run: scripts, the example's rules, perfgate's commands ($perfgate_bin)" rules
if ((failed)); then
  echo "validate-workflow: FAILED"
  exit 1
fi
echo "validate-workflow: every check passed"
