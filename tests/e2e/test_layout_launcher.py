"""The layout launchers (issue 39, docs/layout.md) with a real compiler: seeds move the hot loop
of tests/layout/, the same seed gives the same bytes, every layout computes the same output, and
without a seed the launchers are not there at all.

The launchers are scripts, so the tests run them from the source tree
(harness/tools/layout/); a CMake configure copies the same files to build/libexec/perfgate/.
No perfgate build is needed: gcc, make and binutils (objdump, nm) are."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAUNCHERS = ROOT / "harness" / "tools" / "layout"
CC = LAUNCHERS / "perfgate-layout-cc"
LD = LAUNCHERS / "perfgate-layout-ld"
PROGRAM = ROOT / "tests" / "layout"
SEEDS = tuple(map(str, range(1, 9)))

pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in ("gcc", "make", "objdump", "nm")),
                                reason="needs gcc, make, objdump and nm")


def env_with(seed):
    env = {k: v for k, v in os.environ.items() if k != "PERFGATE_LAYOUT_SEED"}
    if seed is not None:
        env["PERFGATE_LAYOUT_SEED"] = seed
    return env


def make(out, cc, seed=None, cflags="-O2", program=PROGRAM):
    """tests/layout/ (or a copy at `program`) built into `out` by make with CC=`cc`; the program's path."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["make", "-s", "-f", str(program / "Makefile"), f"OUT={out}", f"CC={cc}", f"CFLAGS={cflags}"],
                   env=env_with(seed), check=True, capture_output=True, text=True)
    return out / "hot"


def output(program):
    return subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout


def hot_loop(program):
    """(loop head, backward jump) of hot_sum: the head is the target of the loop's backward jump."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(program)],
                          capture_output=True, text=True, check=True).stdout
    body = re.search(r"^([0-9a-f]+) <hot_sum>:\n(.*?)(?:\n\n|\Z)", text, re.M | re.S)
    assert body, "no hot_sum in the program"
    start = int(body.group(1), 16)
    for m in re.finditer(r"^\s*([0-9a-f]+):\s+j[a-z]+\s+([0-9a-f]+) <", body.group(2), re.M):
        at, target = int(m.group(1), 16), int(m.group(2), 16)
        if start <= target <= at:
            return target, at
    raise AssertionError("hot_sum has no backward jump:\n" + body.group(2))


def hot_first(program):
    """Whether the linker put hot.o's code before digest.o's."""
    nm = subprocess.run(["nm", str(program)], capture_output=True, text=True, check=True).stdout
    address = {w[2]: int(w[0], 16) for w in map(str.split, nm.splitlines()) if len(w) == 3}
    return address["hot_sum"] < address["print_digest"]


def launched(launcher, *argv, seed="7"):
    """The command a launcher runs, seen through `echo` standing in for the compiler."""
    r = subprocess.run([str(launcher), "echo", *argv], env=env_with(seed), capture_output=True, text=True, check=True)
    return r.stdout.split()


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("layouts")
    plain = make(tmp / "plain", "gcc")
    seeded = {s: make(tmp / f"seed{s}", f"{CC} gcc", seed=s) for s in SEEDS}
    return dict(tmp=tmp, plain=plain, seeded=seeded)


def test_seeds_put_the_hot_loop_in_different_places(builds):
    heads = {s: hot_loop(p)[0] for s, p in builds["seeded"].items()}
    first_four = {heads[s] % 64 for s in SEEDS[:4]}
    assert len(first_four) >= 3, f"hot loop head modulo 64, seeds 1-4: {first_four}"
    # Eight seeds reach every 16-byte step of a 64-byte line, and only whole steps: entries stay
    # 16-aligned as -O2 makes them, and the loop keeps its place within the function.
    assert len({h % 64 for h in heads.values()}) == 4, {s: h % 64 for s, h in heads.items()}
    assert len({h % 16 for h in heads.values()}) == 1, {s: h % 16 for s, h in heads.items()}
    orders = {s: hot_first(p) for s, p in builds["seeded"].items()}
    assert set(orders.values()) == {True, False}, f"hot.o linked first, per seed: {orders}"


def test_every_layout_computes_the_same_output(builds):
    want = output(builds["plain"])
    assert want.startswith("n=1000000 sum=")
    assert {s: output(p) for s, p in builds["seeded"].items()} == {s: want for s in SEEDS}


def test_the_same_seed_gives_the_same_bytes_in_any_folder(builds):
    # Another build folder and another copy of the sources, so other paths for every file:
    # the launchers key on file names alone.
    first = builds["seeded"]["3"].parent
    copy = shutil.copytree(PROGRAM, builds["tmp"] / "elsewhere" / "layout")
    again = make(builds["tmp"] / "elsewhere" / "seed3", f"{CC} gcc", seed="3", program=copy).parent
    for name in ("hot", "hot.o", "main.o", "digest.o"):
        assert (again / name).read_bytes() == (first / name).read_bytes(), name
    assert (again / "hot").read_bytes() != builds["plain"].read_bytes(), "seed 3 built the plain program"


@pytest.mark.parametrize("seed", [None, ""], ids=["unset", "empty"])
def test_without_a_seed_the_launchers_change_nothing(builds, seed):
    launched_build = make(builds["tmp"] / ("noseed-" + ("unset" if seed is None else "empty")), f"{CC} gcc", seed=seed)
    for name in ("hot", "hot.o", "main.o", "digest.o"):
        assert (launched_build.parent / name).read_bytes() == (builds["plain"].parent / name).read_bytes(), name
    assert launched(CC, "gcc", "-O2", "-c", "x.c", seed=seed) == ["gcc", "-O2", "-c", "x.c"]
    assert launched(LD, "gcc", "b.o", "a.o", "-o", "p", seed=seed) == ["gcc", "b.o", "a.o", "-o", "p"]


def test_the_compile_launcher_shifts_whole_functions_only():
    # At -O2 entries are 16-aligned, so N is a multiple of 16 (the loop keeps its alignment);
    # at -Os nothing is aligned and N takes any value. All NOPs sit before the entry (N,N).
    shifts = {}
    for opt in ("-O2", "-Os"):
        for seed in map(str, range(1, 41)):
            cmd = launched(CC, "gcc", opt, "-c", "dir/x.c", "-o", "x.o", seed=seed)
            flags = [a for a in cmd if a.startswith("-fpatchable")]
            rest = [a for a in cmd if not a.startswith("-fpatchable")]
            assert rest == ["gcc", opt, "-c", "dir/x.c", "-o", "x.o"]
            n = int(flags[0].split("=")[1].split(",")[0]) if flags else 0
            assert flags in ([], [f"-fpatchable-function-entry={n},{n}"]) and 0 <= n < 64
            shifts.setdefault(opt, set()).add(n)
    assert shifts["-O2"] == {0, 16, 32, 48}
    assert any(n % 16 for n in shifts["-Os"])
    assert launched(CC, "gcc", "-O2", "-E", "x.c") == ["gcc", "-O2", "-E", "x.c"]


def test_the_shuffle_method_gives_every_function_a_section_and_lld_the_seed(monkeypatch):
    # PERFGATE_LAYOUT_METHOD=shuffle (what perfgate's own layout builds use with lld installed):
    # compiles gain -ffunction-sections and no padding; links go to lld with a shuffle seed of
    # 1 + a hash of ours (lld's 0 is random and -1 reversed, neither a layout), compile-and-link
    # both; preprocessing stays as it is.
    monkeypatch.setenv("PERFGATE_LAYOUT_METHOD", "shuffle")
    # `echo` stands in for the compiler: what the launcher adds comes first, then the words given.
    assert launched(CC, "gcc", "-O2", "-c", "x.c", "-o", "x.o") == [
        "-ffunction-sections", "gcc", "-O2", "-c", "x.c", "-o", "x.o"]
    link = launched(CC, "gcc", "a.o", "b.o", "-o", "prog")
    assert link[0] == "-fuse-ld=lld" and link[2:] == ["gcc", "a.o", "b.o", "-o", "prog"]
    seed = int(link[1].removeprefix("-Wl,--shuffle-sections=*="))
    assert seed >= 1 and link[1] == launched(CC, "gcc", "a.o", "-o", "p")[1]
    assert launched(CC, "gcc", "a.o", "-o", "p", seed="8")[1] != link[1]
    both = launched(CC, "gcc", "-O2", "x.c", "-o", "prog")
    assert both[:2] == ["-ffunction-sections", "-fuse-ld=lld"] and both[3:] == ["gcc", "-O2", "x.c", "-o", "prog"]
    assert launched(CC, "gcc", "-E", "x.c") == ["gcc", "-E", "x.c"]
    monkeypatch.setenv("PERFGATE_LAYOUT_METHOD", "bogus")
    r = subprocess.run([str(CC), "echo", "x.c"], env=env_with("7"), capture_output=True, text=True)
    assert r.returncode == 2 and "pad or shuffle" in r.stderr


def test_the_link_launcher_moves_objects_only():
    argv = ["cc", "-O2", "crt1.o", "a.o", "-o", "out.o", "b.o", "-lm", "c.o", "/usr/lib/crti.o", "d.o"]
    orders = set()
    for seed in map(str, range(1, 21)):
        cmd = launched(LD, *argv, seed=seed)
        assert cmd == launched(LD, *argv, seed=seed), "the same seed, another order"
        fixed = [(i, a) for i, a in enumerate(argv) if a in ("cc", "-O2", "crt1.o", "-o", "out.o", "-lm", "/usr/lib/crti.o")]
        assert [(i, cmd[i]) for i, _ in fixed] == fixed
        objects = [cmd[i] for i in (3, 6, 8, 10)]
        assert sorted(objects) == ["a.o", "b.o", "c.o", "d.o"]
        orders.add(tuple(objects))
    assert len(orders) >= 6, orders
    # make links through $(CC): the compile launcher hands a link of objects to the link launcher
    assert launched(CC, *argv[:2], "a.o", "b.o", "c.o", "-o", "p", seed="5") == \
        launched(LD, *argv[:2], "a.o", "b.o", "c.o", "-o", "p", seed="5")


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_a_cmake_project_builds_the_same_layout_in_any_build_folder(builds, tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\nproject(layout C)\n"
        f"add_executable(hot {PROGRAM}/main.c {PROGRAM}/digest.c {PROGRAM}/hot.c)\n")
    programs = []
    for folder in ("b1", "b2"):
        b = tmp_path / folder
        subprocess.run(["cmake", "-S", tmp_path / "src", "-B", b, "-DCMAKE_C_COMPILER=gcc", "-DCMAKE_BUILD_TYPE=Release",
                        f"-DCMAKE_C_COMPILER_LAUNCHER={CC}", f"-DCMAKE_C_LINKER_LAUNCHER={LD}"],
                       check=True, capture_output=True, env=env_with(None))
        subprocess.run(["cmake", "--build", b, "--target", "hot", "-j1"], check=True, capture_output=True,
                       env=env_with("6"))
        programs.append(b / "hot")
    assert programs[0].read_bytes() == programs[1].read_bytes()
    assert output(programs[0]) == output(builds["plain"])
