#!/usr/bin/env bash
# Runs the example workflow (docs/examples/github-actions.yml) on this machine: its jobs in order,
# each matrix leg in turn, on a scratch "GitHub" — a bare repository whose main is this repository's
# HEAD (the base) and whose pull request #1 is one commit on top of it — and exits with the gate's
# exit code (the merge step's, `id: merge`; or the first failed step's when the merge never ran).
#
# The `run:` steps are read from the YAML (python3-yaml) and run as the runner runs them (bash
# --noprofile --norc -eo pipefail) with the runner's variables set: GITHUB_ACTIONS=true,
# GITHUB_BASE_REF, GITHUB_SHA, GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_ENV,
# GITHUB_STEP_SUMMARY, and ${{ }} expressions, `if:` conditions, job outputs and matrices evaluated.
# `uses:` steps are emulated where their effect matters here and skipped otherwise, and each says
# which: actions/checkout (a fetch from the scratch repository), upload-/download-artifact (a folder
# per artifact), action-junit-report (the files are read and counted; no check run is made),
# actions/cache (skipped: ccache's local directory persists). `container:` and `runs-on:` are noted:
# every job runs here. GitHub-hosted jobs get a fresh workspace each, removed after the job; self-
# hosted ones share one workspace kept between jobs, as a persistent runner does (RUNNER_TEMP is
# emptied for every job).
#
# Usage: scripts/ci-local.sh [--slower] [--scenarios "A B"] [--profile P] [--max-shards N]
#                            [--workflow FILE] [--dir DIR] [--keep]
#   --slower          the PR commit makes upload_spool's AFTER write through a buffer an eighth of the
#                     size (more write(2) calls, an exact count): the gate must fail, exit 1.
#                     Without it the PR commit changes README.md only: the gate should pass.
#   --scenarios LIST  PERFGATE_SCENARIOS for the run (default "upload_spool carddav_report", two
#                     seconds-long scenarios; "" for every batch scenario)
#   --profile P       PERFGATE_PROFILE (default quick)
#   --max-shards N    PERFGATE_MAX_SHARDS (default: the workflow's)
#   --dir DIR         the scratch folder (default /tmp/perfgate-ci-local; a fixed path, so that ccache
#                     finds the same absolute paths every run); emptied first and removed at the end
#   --keep            keep the scratch folder (artifacts, summaries, workspaces) for a look
# Only committed work is measured: the base is HEAD, not the working tree; the workflow file is
# read from the working tree (it is what is being tested). CCACHE_DIR defaults to
# ~/.cache/perfgate-ci-local/ccache. The first run builds the PR from scratch (12 to 25 minutes on
# two cores); the base and later runs hit ccache (a warm run: about a minute).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

workflow="$root/docs/examples/github-actions.yml"
dir=/tmp/perfgate-ci-local
slower=0 keep=0
scenarios="upload_spool carddav_report" profile=quick max_shards=""
die() { echo "ci-local: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
while (($#)); do
  case "$1" in
    --slower) slower=1 ;;
    --scenarios) (($# >= 2)) || die "--scenarios needs a value"; scenarios="$2"; shift ;;
    --profile) (($# >= 2)) || die "--profile needs a value"; profile="$2"; shift ;;
    --max-shards) (($# >= 2)) || die "--max-shards needs a value"; max_shards="$2"; shift ;;
    --workflow) (($# >= 2)) || die "--workflow needs a value"; workflow="$2"; shift ;;
    --dir) (($# >= 2)) || die "--dir needs a value"; dir="$2"; shift ;;
    --keep) keep=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (--help)" ;;
  esac
  shift
done
[ -f "$workflow" ] || die "no such workflow file: $workflow"
workflow="$(cd "$(dirname "$workflow")" && pwd)/$(basename "$workflow")"
/usr/bin/python3 -c 'import yaml' 2>/dev/null || die "needs Debian's python3-yaml: apt-get install python3-yaml"
command -v git >/dev/null || die "needs git"
git -C "$root" rev-parse --verify -q HEAD >/dev/null || die "$root is not a git repository with a commit"
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
[ "$dir" != / ] || die "--dir /: no"

# One run at a time per scratch folder; a folder that is not ours is never emptied.
exec 8> "$dir.lock"
flock -n 8 || die "another ci-local run is using $dir (lock $dir.lock)"
if [ -e "$dir" ] && [ ! -e "$dir/.perfgate-ci-local" ]; then
  die "$dir exists and is not a ci-local scratch folder: choose another --dir"
fi
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  local rc=$?
  if ((keep)); then
    echo "ci-local: kept $dir"
  else
    rm -rf "$dir"
  fi
  rm -f "$dir.lock"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # until the jobs start; then the signal is passed on to them (below)
rm -rf "$dir"
mkdir -p "$dir"
touch "$dir/.perfgate-ci-local"

# The scratch "GitHub": main = HEAD (the base), pr-1 = one commit on top (the pull request).
gitq() { git -c advice.detachedHead=false -c user.name=ci-local -c user.email=ci-local@localhost "$@"; }
base_sha="$(git -C "$root" rev-parse HEAD)"
gitq init -q --bare "$dir/origin.git"
gitq -C "$dir/origin.git" config uploadpack.allowAnySHA1InWant true  # GitHub serves any commit it has
gitq -C "$root" push -q "$dir/origin.git" "$base_sha:refs/heads/main"
gitq clone -q --no-checkout "$dir/origin.git" "$dir/pr-src"
gitq -C "$dir/pr-src" checkout -q -b pr-1 "$base_sha"
if ((slower)); then
  after="$dir/pr-src/scenarios/upload_spool/after.cpp"
  grep -q 'buf_.reserve(capacity);' "$after" || die "--slower: $after no longer has 'buf_.reserve(capacity);'"
  sed -i 's|buf_.reserve(capacity);|buf_.reserve(capacity / 8);  // ci-local --slower: 8x the write(2) calls|' "$after"
  change="upload_spool's AFTER writes through a buffer an eighth of the size (ci-local --slower)"
else
  printf '\n<!-- ci-local: a harmless change -->\n' >> "$dir/pr-src/README.md"
  change="README.md only (harmless)"
fi
gitq -C "$dir/pr-src" commit -q -am "ci-local pull request: $change"
gitq -C "$dir/pr-src" push -q origin pr-1
pr_sha="$(git -C "$dir/pr-src" rev-parse HEAD)"
rm -rf "$dir/pr-src"
echo "ci-local: base main = ${base_sha:0:12} (HEAD of $root), PR #1 = ${pr_sha:0:12}: $change"

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/perfgate-ci-local/ccache}"
# The jobs run in the background so that a signal to this script reaches them: the driver stops
# the running step (its process group) and exits, then the EXIT trap removes the scratch folder.
interrupted=0
trap 'interrupted=1; kill -TERM "$driver" 2>/dev/null || true' INT TERM
cat > "$dir/driver.py" <<'PY'
import fnmatch, glob, itertools, json, os, re, shutil, signal, subprocess, sys, time
import xml.etree.ElementTree as ET
import yaml

workflow_file, scratch, base_sha, pr_sha, scenarios, profile, max_shards = sys.argv[1:8]
wf = yaml.safe_load(open(workflow_file))
REPO = "local/perfgate"
ORIGIN = "file://" + os.path.join(scratch, "origin.git")
ARTIFACTS = os.path.join(scratch, "artifacts")
SUMMARIES = os.path.join(scratch, "summaries")
os.makedirs(ARTIFACTS)
os.makedirs(SUMMARIES)


def say(msg):
    print(f"ci-local: {msg}", flush=True)


def stop(signum, frame):  # ci-local.sh passes INT and TERM on as TERM
    raise KeyboardInterrupt


signal.signal(signal.SIGTERM, stop)


# ---- ${{ }} expressions: the subset of GitHub's language a workflow uses ---------------------
class ExprError(Exception):
    pass


TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|<=|>=|&&|\|\||[()\[\].,!<>])"
                   r"|(?P<id>[A-Za-z_][A-Za-z0-9_-]*))")


def tokenize(s):
    out, i = [], 0
    while i < len(s):
        if s[i:].strip() == "":
            break
        m = TOKEN.match(s, i)
        if not m:
            raise ExprError(f"cannot read {s[i:]!r}")
        i = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


def truthy(v):
    return not (v is None or v is False or v == 0 or v == "" or (isinstance(v, float) and v != v))


def num(v):
    if v is None:
        return 0
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if isinstance(v, str):
        try:
            return float(v) if v.strip() else 0
        except ValueError:
            return float("nan")
    return float("nan")


def loose_eq(a, b):
    """GitHub's ==: strings ignore case; values of different types are compared as numbers."""
    if isinstance(a, str) and isinstance(b, str):
        return a.lower() == b.lower()
    if type(a) is type(b):
        return a == b
    return num(a) == num(b)


def to_str(v):
    if v is None:
        return ""
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (dict, list)):
        return json.dumps(v, indent=2)
    return str(v)


class Parser:
    def __init__(self, text, ctx, funcs):
        self.t, self.i, self.ctx, self.funcs, self.text = tokenize(text), 0, ctx, funcs, text

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else (None, None)

    def take(self, want=None):
        tok = self.peek()
        if tok[0] is None or (want and tok[1] != want):
            raise ExprError(f"{self.text!r}: expected {want or 'more'}")
        self.i += 1
        return tok

    def parse(self):
        v = self.orx()
        if self.i != len(self.t):
            raise ExprError(f"{self.text!r}: unexpected {self.peek()[1]!r}")
        return v

    def orx(self):
        v = self.andx()
        while self.peek()[1] == "||":
            self.take()
            w = self.andx()
            v = v if truthy(v) else w
        return v

    def andx(self):
        v = self.cmp()
        while self.peek()[1] == "&&":
            self.take()
            w = self.cmp()
            v = w if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        op = self.peek()[1]
        if op in ("==", "!=", "<", "<=", ">", ">="):
            self.take()
            w = self.unary()
            if op == "==":
                return loose_eq(v, w)
            if op == "!=":
                return not loose_eq(v, w)
            a, b = num(v), num(w)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        return v

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.postfix()

    def postfix(self):
        v = self.primary()
        while self.peek()[1] in (".", "["):
            if self.take()[1] == ".":
                key = self.take()[1]
            else:
                key = self.orx()
                self.take("]")
            if isinstance(v, dict):
                low = {str(k).lower(): x for k, x in v.items()}
                v = low.get(str(key).lower())
            elif isinstance(v, list) and isinstance(key, (int, float)):
                v = v[int(key)] if 0 <= int(key) < len(v) else None
            else:
                v = None
        return v

    def primary(self):
        kind, val = self.take()
        if kind == "num":
            return float(val) if "." in val else int(val)
        if kind == "str":
            return val[1:-1].replace("''", "'")
        if val == "(":
            v = self.orx()
            self.take(")")
            return v
        if kind == "id":
            if val in ("true", "false"):
                return val == "true"
            if val == "null":
                return None
            if self.peek()[1] == "(":
                self.take()
                args = []
                while self.peek()[1] != ")":
                    args.append(self.orx())
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                f = self.funcs.get(val.lower())
                if f is None:
                    raise ExprError(f"{self.text!r}: ci-local does not know the function {val}()")
                return f(*args)
            return self.ctx.get(val)
        raise ExprError(f"{self.text!r}: unexpected {val!r}")


def make_funcs(status):
    return {
        "success": lambda: status() == "success",
        "failure": lambda: status() == "failure",
        "cancelled": lambda: False,
        "always": lambda: True,
        "fromjson": lambda s: json.loads(s),
        "tojson": lambda v: json.dumps(v, indent=2),
        "contains": lambda a, b: (any(loose_eq(x, b) for x in a) if isinstance(a, list)
                                  else to_str(b).lower() in to_str(a).lower()),
        "startswith": lambda a, b: to_str(a).lower().startswith(to_str(b).lower()),
        "endswith": lambda a, b: to_str(a).lower().endswith(to_str(b).lower()),
        "format": lambda f, *a: re.sub(r"\{(\d+)\}", lambda m: to_str(a[int(m[1])]), f),
    }


def evaluate(expr, ctx, status):
    return Parser(expr, ctx, make_funcs(status)).parse()


WHOLE = re.compile(r"^\s*\$\{\{((?:(?!\}\}).)*)\}\}\s*$", re.S)  # one expression, nothing around it
PART = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def expand(value, ctx, status=lambda: "success"):
    """A YAML value with ${{ }} in it: a whole-string expression keeps its type."""
    if isinstance(value, dict):
        return {k: expand(v, ctx, status) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v, ctx, status) for v in value]
    if not isinstance(value, str):
        return value
    m = WHOLE.match(value)
    if m:
        return evaluate(m.group(1), ctx, status)
    return PART.sub(lambda m: to_str(evaluate(m.group(1), ctx, status)), value)


def condition(cond, ctx, status):
    if cond is None:
        cond = "success()"
    if isinstance(cond, bool):
        return cond
    cond = str(cond).strip()
    m = WHOLE.match(cond)
    if m:
        cond = m.group(1)
    if not re.search(r"\b(success|failure|always|cancelled)\s*\(", cond):
        cond = f"success() && ({cond})"
    return truthy(evaluate(cond, ctx, status))


# ---- the runner ------------------------------------------------------------------------------
def env_str(d):
    return {k: to_str(v) for k, v in (d or {}).items()}


def read_kv_file(path):
    """GITHUB_OUTPUT / GITHUB_ENV: NAME=VALUE lines and NAME<<DELIM heredocs."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            body = []
            while i < len(lines) and lines[i] != delim:
                body.append(lines[i])
                i += 1
            i += 1
            out[name] = "\n".join(body)
        elif "=" in line:
            name, val = line.split("=", 1)
            out[name] = val
    return out


class Job:
    def __init__(self, name, spec, matrix, strategy, needs):
        self.name, self.spec, self.matrix, self.strategy, self.needs = name, spec, matrix, strategy, needs
        self.label = name + (" (" + ", ".join(f"{k}={to_str(v)}" for k, v in matrix.items()) + ")" if matrix else "")
        self.status = "success"
        self.steps = {}
        self.first_failure = None
        self.gate_code = None


def runner_kind(spec):
    ro = spec.get("runs-on", [])
    ro = ro if isinstance(ro, list) else [ro]
    return "self-hosted" if "self-hosted" in ro else "hosted"


def workspace_of(kind):
    base = os.path.join(scratch, kind, "_work")
    return os.path.join(base, "perfgate", "perfgate"), os.path.join(base, "_temp")


def git(args, cwd, check=True):
    r = subprocess.run(["git", "-c", "advice.detachedHead=false"] + args, cwd=cwd, capture_output=True, text=True)
    if check and r.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip()


def checkout(job, with_, ws):
    ref = to_str(with_.get("ref")) or pr_sha
    depth = int(with_.get("fetch-depth", 1))
    if os.path.isdir(os.path.join(ws, ".git")):  # a persistent runner: clean the old checkout
        git(["reset", "-q", "--hard"], ws, check=False)
        git(["clean", "-ffdxq"], ws)
    else:
        os.makedirs(ws, exist_ok=True)
        git(["init", "-q"], ws)
        git(["remote", "add", "origin", ORIGIN], ws)
    fetch = ["fetch", "-q", "--no-tags"] + (["--depth", str(depth)] if depth > 0 else [])
    refspecs = [ref] if depth > 0 else ["+refs/heads/*:refs/remotes/origin/*", ref]
    git(fetch + ["origin"] + refspecs, ws)
    git(["checkout", "-q", "--force", "--detach", "FETCH_HEAD" if depth > 0 else ref], ws)
    return f"checked out {git(['rev-parse', '--short=12', 'HEAD'], ws)} (fetch-depth {depth}) from the scratch repository"


def upload(job, with_, ws, outputs):
    name = to_str(with_.get("name", "artifact"))
    dest = os.path.join(ARTIFACTS, name)
    if os.path.exists(dest):
        raise RuntimeError(f"an artifact named {name} was already uploaded in this run")
    paths = [p for p in to_str(with_["path"]).splitlines() if p.strip()]
    found = []
    for p in paths:
        full = os.path.join(ws, os.path.expanduser(p.strip()))
        found += glob.glob(full)
    if not found:
        mode = to_str(with_.get("if-no-files-found", "warn"))
        if mode == "error":
            raise RuntimeError(f"no files found at {paths}")
        return f"nothing at {paths}: no artifact {name} ({mode})"
    os.makedirs(dest)
    for f in found:
        if os.path.isdir(f):
            shutil.copytree(f, dest, dirs_exist_ok=True, symlinks=True)
        else:
            shutil.copy2(f, dest)
    outputs["artifact-url"] = "file://" + dest
    outputs["artifact-id"] = str(len(os.listdir(ARTIFACTS)))
    n = sum(len(fs) for _, _, fs in os.walk(dest))
    return f"artifact {name}: {n} files ({', '.join(os.path.relpath(f, ws) for f in found)})"


def download(job, with_, ws):
    path = os.path.join(ws, os.path.expanduser(to_str(with_.get("path", ""))))
    names = sorted(os.listdir(ARTIFACTS))
    if with_.get("name"):
        wanted = [to_str(with_["name"])]
        if wanted[0] not in names:
            raise RuntimeError(f"no artifact named {wanted[0]} (there are: {', '.join(names) or 'none'})")
        into = {wanted[0]: path}
    else:
        wanted = [n for n in names if fnmatch.fnmatch(n, to_str(with_.get("pattern", "*")))]
        merge = str(with_.get("merge-multiple", "false")).lower() == "true"
        into = {n: path if merge else os.path.join(path, n) for n in wanted}
    for n, d in into.items():
        shutil.copytree(os.path.join(ARTIFACTS, n), d, dirs_exist_ok=True, symlinks=True)
    return f"downloaded {', '.join(wanted) or 'no artifact'} into {os.path.relpath(path, ws) or '.'}"


def junit_report(job, with_, ws):
    files = []
    for p in to_str(with_.get("report_paths", "")).split(","):
        for line in p.splitlines():
            if line.strip():
                files += sorted(glob.glob(os.path.join(ws, line.strip()), recursive=True))
    tests = failures = errors = skipped = 0
    for f in files:
        for case in ET.parse(f).getroot().iter("testcase"):
            tests += 1
            failures += case.find("failure") is not None
            errors += case.find("error") is not None
            skipped += case.find("skipped") is not None
    msg = (f"not publishing (no GitHub API here); read {len(files)} files: {tests} test cases, "
           f"{failures} failures, {errors} errors, {skipped} skipped")
    if str(with_.get("require_tests", "false")).lower() == "true" and tests == 0:
        raise RuntimeError(msg + ": require_tests and no test case")
    return msg


def end_group(p):
    """The step and everything it started (its own session): TERM, and KILL 10 s later."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, None)):
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
        try:
            p.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def run_script(script, shell, cwd, env, timeout):
    os.makedirs(env["RUNNER_TEMP"], exist_ok=True)
    path = os.path.join(env["RUNNER_TEMP"], f"ci-local-step-{time.monotonic_ns()}.sh")
    with open(path, "w") as f:
        f.write(script if script.endswith("\n") else script + "\n")
    shells = {"bash": "bash --noprofile --norc -eo pipefail {0}", "sh": "sh -e {0}",
              "python": "python3 {0}"}
    argv = shells.get(shell, shell).replace("{0}", path).split()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        return p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        end_group(p)
        say("step timed out (the job's timeout-minutes)")
        return 124
    except KeyboardInterrupt:
        say("interrupted: stopping the step")
        end_group(p)
        raise
    finally:
        os.unlink(path)


def github_context(job, ws):
    return {
        "event_name": "pull_request", "repository": REPO, "sha": pr_sha, "ref": "refs/pull/1/merge",
        "base_ref": "main", "head_ref": "pr-1", "workspace": ws, "job": job.name, "run_id": "1",
        "workflow": wf.get("name", ""),
        "event": {"pull_request": {"number": 1, "head": {"ref": "pr-1", "sha": pr_sha, "repo": {"full_name": REPO}},
                                   "base": {"ref": "main", "sha": base_sha, "repo": {"full_name": REPO}}}},
    }


def run_job(job, results):
    spec = job.spec
    kind = runner_kind(spec)
    ws, temp = workspace_of(kind)
    if kind == "hosted":
        shutil.rmtree(os.path.dirname(os.path.dirname(ws)), ignore_errors=True)
    shutil.rmtree(temp, ignore_errors=True)
    os.makedirs(ws, exist_ok=True)
    os.makedirs(temp, exist_ok=True)
    summary = os.path.join(SUMMARIES, re.sub(r"[^\w.-]+", "_", job.label).strip("_") + ".md")
    ctx = {"github": github_context(job, ws), "matrix": job.matrix, "strategy": job.strategy,
           "needs": {n: results[n] for n in job.needs}, "runner": {"os": "Linux", "arch": "X64", "temp": temp},
           "steps": job.steps, "job": {"status": "success"}}
    wf_env = env_str(expand(wf.get("env"), {**ctx, "env": {}}))
    wf_env.update(OVERRIDES)
    ctx["env"] = dict(wf_env)
    job_env = {**wf_env, **env_str(expand(spec.get("env"), ctx))}
    ctx["env"] = dict(job_env)
    deadline = time.monotonic() + 60 * float(spec.get("timeout-minutes", 360))
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
    base_env.update({"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws, "RUNNER_TEMP": temp,
                     "RUNNER_OS": "Linux", "GITHUB_REPOSITORY": REPO, "GITHUB_SHA": pr_sha,
                     "GITHUB_REF": "refs/pull/1/merge", "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "pr-1",
                     "GITHUB_EVENT_NAME": "pull_request", "GITHUB_JOB": job.name, "GITHUB_RUN_ID": "1",
                     "GITHUB_STEP_SUMMARY": summary})
    added_env = {}
    defaults = (wf.get("defaults") or {}).get("run", {})
    defaults = {**defaults, **((spec.get("defaults") or {}).get("run", {}))}
    notes = []
    if spec.get("container"):
        notes.append(f"container {spec['container']}: runs on this machine instead")
    notes.append(f"runs-on {spec.get('runs-on')}: here, in a {kind} workspace {ws}")
    say(f"=== job {job.label}: " + "; ".join(notes))
    for i, step in enumerate(spec.get("steps", [])):
        sid = step.get("id", f"__{i}")
        title = step.get("name") or (step.get("uses") or step.get("run", "").splitlines()[0])
        try:
            title = expand(title, ctx)
        except ExprError:
            pass
        status = lambda: job.status
        ctx["job"]["status"] = job.status
        ctx["env"] = {**job_env, **added_env}
        if not condition(step.get("if"), ctx, status):
            say(f"--- {job.label} / {title}: skipped (if: {step.get('if', 'success()')})")
            job.steps[sid] = {"outcome": "skipped", "conclusion": "skipped", "outputs": {}}
            continue
        step_env = env_str(expand(step.get("env"), ctx))
        env = {**base_env, **job_env, **added_env, **step_env}
        ctx["env"] = {**job_env, **added_env, **step_env}
        outputs, code, began = {}, 0, time.monotonic()
        remaining = deadline - time.monotonic()
        if "uses" in step:
            uses = step["uses"]
            action = uses.split("@")[0]
            with_ = expand(step.get("with") or {}, ctx)
            say(f"--- {job.label} / {title}  [uses {uses}]")
            try:
                if action == "actions/checkout":
                    what = checkout(job, with_, ws)
                elif action == "actions/upload-artifact":
                    what = upload(job, with_, ws, outputs)
                elif action == "actions/download-artifact":
                    what = download(job, with_, ws)
                elif action == "mikepenz/action-junit-report":
                    what = junit_report(job, with_, ws)
                elif action == "actions/cache":
                    what = f"skipped: not emulated (ccache's local directory {os.environ.get('CCACHE_DIR')} persists)"
                else:
                    what = "skipped: ci-local does not emulate this action"
                say(f"    {what}")
            except Exception as e:  # an action that fails fails its step
                say(f"    FAILED: {e}")
                code = 1
        else:
            out_file = os.path.join(temp, f"output-{i}")
            env_file = os.path.join(temp, f"env-{i}")
            open(out_file, "w").close()
            open(env_file, "w").close()
            env.update({"GITHUB_OUTPUT": out_file, "GITHUB_ENV": env_file})
            script = expand(step["run"], ctx)
            shell = step.get("shell", defaults.get("shell", "bash"))
            cwd = os.path.join(ws, expand(step.get("working-directory", defaults.get("working-directory", "")), ctx))
            say(f"--- {job.label} / {title}  [run, {shell}]")
            if remaining <= 0:
                code = 124
            else:
                code = run_script(script, shell, cwd, env, remaining)
            outputs = read_kv_file(out_file)
            added_env.update(read_kv_file(env_file))
        outcome = "success" if code == 0 else "failure"
        job.steps[sid] = {"outcome": outcome, "conclusion": outcome, "outputs": outputs, "exit_code": code}
        say(f"    {outcome} (exit {code}, {time.monotonic() - began:.0f} s)")
        if sid == "merge":
            job.gate_code = code
        if code != 0:
            job.status = "failure"
            if job.first_failure is None:
                job.first_failure = (title, code)
    outs = {}
    ctx["env"] = {**job_env, **added_env}
    for k, v in (spec.get("outputs") or {}).items():
        outs[k] = to_str(expand(v, ctx))
    if kind == "hosted":  # a GitHub-hosted runner is gone after its job, and its paths with it
        shutil.rmtree(os.path.dirname(os.path.dirname(ws)), ignore_errors=True)
    return outs


OVERRIDES = {"PERFGATE_PROFILE": profile, "PERFGATE_SCENARIOS": scenarios}
if max_shards:
    OVERRIDES["PERFGATE_MAX_SHARDS"] = max_shards
say("workflow env overridden for this run: " + ", ".join(f"{k}={v!r}" for k, v in OVERRIDES.items()))

results, table, gate_code, first_failure = {}, [], None, None
try:
    for name, spec in wf["jobs"].items():
        needs = spec.get("needs", [])
        needs = needs if isinstance(needs, list) else [needs]
        missing = [n for n in needs if n not in results]
        if missing:
            raise SystemExit(f"ci-local: job {name} needs {missing}, which come later in the file")
        needs_ctx = {n: results[n] for n in needs}
        ancestors = set()
        todo = list(needs)
        while todo:
            n = todo.pop()
            if n not in ancestors:
                ancestors.add(n)
                todo += results[n]["needs"]
        upstream = [results[n]["result"] for n in ancestors]
        job_status = lambda: "failure" if "failure" in upstream else "success" if all(
            r == "success" for r in upstream) else "skipped"
        ctx = {"github": github_context(Job(name, spec, {}, {}, needs), ""), "needs": needs_ctx,
               "env": env_str(wf.get("env")), "matrix": {}, "strategy": {}}
        if not condition(spec.get("if"), ctx, job_status):
            say(f"=== job {name}: skipped (if: {spec.get('if', 'success()')})")
            results[name] = {"result": "skipped", "outputs": {}, "needs": needs}
            table.append((name, "skipped"))
            continue
        strategy = spec.get("strategy") or {}
        axes = expand(strategy.get("matrix") or {}, ctx)
        if not isinstance(axes, dict) or any(not isinstance(v, list) for v in axes.values()):
            raise SystemExit(f"ci-local: job {name}: a matrix ci-local cannot expand: {axes!r}")
        keys = list(axes)
        combos = [dict(zip(keys, c)) for c in itertools.product(*(axes[k] for k in keys))] if keys else [{}]
        fail_fast = strategy.get("fail-fast", True)
        outs, result = {}, "success"
        for idx, combo in enumerate(combos):
            job = Job(name, spec, combo, {"job-total": len(combos), "job-index": idx, "fail-fast": fail_fast}, needs)
            if result == "failure" and fail_fast and keys:
                say(f"=== job {job.label}: cancelled (fail-fast)")
                table.append((job.label, "cancelled"))
                continue
            outs.update(run_job(job, results))
            table.append((job.label, job.status + (f" at '{job.first_failure[0]}' (exit {job.first_failure[1]})"
                                                   if job.first_failure else "")))
            if job.status == "failure":
                result = "failure"
                first_failure = first_failure or (job.label, *job.first_failure)
            if job.gate_code is not None:
                gate_code = job.gate_code
        results[name] = {"result": result, "outputs": outs, "needs": needs}
except KeyboardInterrupt:
    say("interrupted")
    sys.exit(130)
except ExprError as e:
    say(f"expression: {e}")
    sys.exit(2)

print()
say("jobs:")
for label, how in table:
    print(f"    {label:28} {how}")
for f in sorted(os.listdir(SUMMARIES)):
    print(f"\n----- step summary of {f[:-3]} -----")
    print(open(os.path.join(SUMMARIES, f)).read().rstrip()[:6000])
print()
if gate_code is not None:
    say(f"the gate (the merge step) exited {gate_code}")
    sys.exit(gate_code)
if first_failure:
    say(f"no gate: job {first_failure[0]} failed at '{first_failure[1]}' (exit {first_failure[2]})")
    sys.exit(first_failure[2] or 1)
say("no gate: the merge step never ran")
sys.exit(2)
PY
(exec /usr/bin/python3 "$dir/driver.py" "$workflow" "$dir" "$base_sha" "$pr_sha" "$scenarios" "$profile" "$max_shards") &
driver=$!
while :; do
  rc=0
  wait "$driver" || rc=$?
  kill -0 "$driver" 2>/dev/null || break  # a signal interrupted the wait: wait for the driver again
done
((interrupted == 0)) || rc=130
exit "$rc"
