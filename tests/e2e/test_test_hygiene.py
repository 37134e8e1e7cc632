"""Tests decide exactly (issue 37): no test accepts either of two outcomes of a run, and no test
sleeps in the hope that a run has reached some state.

A test of what perfgate decides asserts one exit code, on scripted samples (--debug-samples,
docs/architecture.md "Testing") or on an exact count; a test of a real measurement asserts the
measurement. So in the Python test sources (tests/e2e, reports/tests, scenarios/*/tests) an exit
code is compared only with == (or != 0 outside an assert, as a skip condition is):
`returncode in (0, 1)`, `returncode not in ...`, `returncode <= 1`, `assert returncode != 2`,
`returncode == 0 or returncode == 1` and `(returncode == 1) == (...)` are refused. And
`time.sleep` is called only inside a `while` loop whose condition reads a deadline or a clock:
a wait on the state itself, bounded. Reads the tree only, so it needs no build."""
import ast
import pathlib
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLOCKS = {"time", "monotonic", "perf_counter"}
RANGE_OPS = (ast.In, ast.NotIn, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def sources():
    yield from sorted((ROOT / "tests" / "e2e").rglob("*.py"))
    yield from sorted((ROOT / "reports" / "tests").rglob("*.py"))
    yield from sorted((ROOT / "scenarios").glob("*/tests/*.py"))


def is_returncode(node):
    return isinstance(node, ast.Attribute) and node.attr == "returncode"


def returncode_compares(node):
    """The comparisons of an exit code under `node`, each as (op, other side)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Compare):
            sides = [n.left, *n.comparators]
            for i, op in enumerate(n.ops):
                a, b = sides[i], sides[i + 1]
                if is_returncode(a):
                    yield n, op, b
                elif is_returncode(b):
                    yield n, op, a


def reads_a_clock(node):
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and "deadline" in n.id.lower():
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in CLOCKS:
            return True
    return False


def is_sleep(call):
    f = call.func
    return (isinstance(f, ast.Attribute) and f.attr == "sleep" and isinstance(f.value, ast.Name)
            and f.value.id == "time") or (isinstance(f, ast.Name) and f.id == "sleep")


class Finder(ast.NodeVisitor):
    def __init__(self):
        self.found = []  # (line, what)
        self.loops = []  # enclosing while loops: does each read a clock?

    def flag(self, node, what):
        self.found.append((node.lineno, what))

    def visit_While(self, node):
        self.loops.append(reads_a_clock(node.test))
        self.generic_visit(node)
        self.loops.pop()

    def visit_FunctionDef(self, node):
        outer, self.loops = self.loops, []  # a loop around a def does not bound the calls inside it
        self.generic_visit(node)
        self.loops = outer

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_Call(self, node):
        if is_sleep(node) and not any(self.loops):
            self.flag(node, "a sleep outside a while loop bounded by a deadline: wait on the state itself")
        self.generic_visit(node)

    def visit_Compare(self, node):
        for _, op, other in returncode_compares(ast.Module(body=[ast.Expr(node)], type_ignores=[])):
            if isinstance(op, RANGE_OPS):
                self.flag(node, "an exit code compared with a range or a set of codes: assert one")
                break
        # (returncode == 1) == (mark == "FAIL"): the code follows another value, either way.
        if any(isinstance(side, ast.Compare) and any(True for _ in returncode_compares(side))
               for side in [node.left, *node.comparators]):
            self.flag(node, "an exit code compared as a truth value with another: assert one code")
        self.generic_visit(node)

    def visit_Assert(self, node):
        codes = set()
        for _, op, other in returncode_compares(node.test):
            if isinstance(op, ast.NotEq) and not (isinstance(other, ast.Constant) and other.value == 0):
                self.flag(node, "an assert that an exit code is not N accepts every other one: assert one")
            if isinstance(op, ast.Eq):
                codes.add(ast.dump(other))
        if len(codes) > 1 and any(isinstance(n, ast.BoolOp) and isinstance(n.op, ast.Or) for n in ast.walk(node.test)):
            self.flag(node, "an assert that accepts one exit code or another: assert one")
        self.generic_visit(node)


def offences(source, name="<test>"):
    finder = Finder()
    finder.visit(ast.parse(source, name))
    return sorted(set(finder.found))


def test_no_test_accepts_either_outcome_or_sleeps_for_a_state():
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in sources()
             for line, what in offences(path.read_text(), str(path))]
    assert not found, "\n".join(found)


PLANTED = {
    "either code": "assert r.returncode in (0, 1), r.stderr",
    "a set of codes": "assert r.returncode in {0, 1}",
    "codes passed in": "def run(codes=(0, 1)):\n    assert r.returncode in codes",
    "not in": "if r.returncode not in (0, 1, 2):\n    problems.append(r)",
    "at most": "assert proc.returncode <= 1",
    "not 2": "assert r.returncode != 2",
    "or": "assert r.returncode == 0 or (r.returncode == 1 and 'guard' in r.stderr)",
    "follows a mark": "assert (r.returncode == 1) == (mark == 'FAIL')",
    "a bare sleep": "import time\np = start()\ntime.sleep(3.0)\np.send_signal(2)",
    "sleep after a loop": ("import time\nwhile len(servers()) < 2 and time.time() < deadline:\n"
                           "    time.sleep(0.05)\ntime.sleep(0.5)"),
    "a loop without a clock": "from time import sleep\nwhile not ready():\n    sleep(0.1)",
    "a def inside a loop": ("import time\nwhile time.time() < deadline:\n    def later():\n"
                            "        time.sleep(1)\n    break"),
}

FINE = textwrap.dedent('''\
    """returncode in (0, 1) in a docstring is prose, and so is time.sleep(3)."""
    import time
    assert r.returncode == 1, r.stdout
    assert bad.returncode == 2 and "field" in bad.stderr
    if subprocess.run(cmd).returncode != 0:
        pytest.skip("no compiler")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if ready():
            break
        time.sleep(0.05)
    while live(pid) and time.time() < deadline:
        time.sleep(0.1)
    ''')


def test_each_planted_offence_is_found():
    missed = [name for name, source in PLANTED.items() if not offences(source)]
    assert not missed, f"not found: {missed}"


def test_what_decides_exactly_is_not_flagged():
    assert offences(FINE) == []


# Tests use only the repository (issue 47): a path that climbs out of the clone ("../shared",
# the root's parent) fails for every user who clones the project alone.
OUTSIDE = ("../shared", "ROOT.parent", "parents[3]", "/work/shared")


def climbs_out(text):
    return [pattern for pattern in OUTSIDE if pattern in text]


def test_no_test_reads_outside_the_repository():
    files = [*sources(), *sorted((ROOT / "harness").rglob("*_test.cpp")), *sorted((ROOT / "fixtures").rglob("*test*.cpp")),
             *sorted((ROOT / "scripts").glob("test*.sh")), ROOT / ".ci" / "run", ROOT / "CMakeLists.txt"]
    found = {str(f.relative_to(ROOT)): hits for f in files if (hits := climbs_out(f.read_text()))}
    found.pop("tests/e2e/test_test_hygiene.py", None)  # this file names the patterns
    assert not found, found


def test_a_path_out_of_the_clone_is_found():
    assert climbs_out('HOST_RUNS = ROOT.parent / "shared" / "host-runs"') == ["ROOT.parent"]
    assert climbs_out('open("../shared/seeds/x.md")') == ["../shared"]
