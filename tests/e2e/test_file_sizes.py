"""No source file over 450 lines under harness/, fixtures/ and reports/ (C++ and Python): a file
that long has more than one job, and the next person has to read all of it to change one.
Reads the tree only, so it needs no build.

PENDING lists the files still being split, each by name. It only shrinks: a listed file that is
already within the limit (or gone) fails here too, so whoever splits it takes it off the list.
"""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TREES = ("harness", "fixtures", "reports")
SUFFIXES = (".cpp", ".hpp", ".py")
LIMIT = 450

# Files still being split, each by its path; remove a line when its file is within the limit.
PENDING: set[str] = set()


def line_count(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def sources():
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                yield path.relative_to(ROOT).as_posix(), path


def test_no_source_file_is_over_the_limit():
    long = [f"{rel}: {n} lines" for rel, path in sources() if rel not in PENDING
            for n in [line_count(path)] if n > LIMIT]
    assert not long, f"over {LIMIT} lines (split by job, see docs/architecture.md):\n" + "\n".join(long)


@pytest.mark.parametrize("rel", sorted(PENDING))
def test_a_pending_file_is_still_over_the_limit(rel):
    path = ROOT / rel
    assert path.is_file(), f"{rel} is gone: take it off PENDING in {pathlib.Path(__file__).name}"
    n = line_count(path)
    assert n > LIMIT, f"{rel} has {n} lines, within {LIMIT}: take it off PENDING in {pathlib.Path(__file__).name}"


def test_the_count_is_of_lines(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("a\n" * (LIMIT + 1))
    assert line_count(f) == LIMIT + 1
    f.write_text("a\n" * LIMIT + "no newline at the end")
    assert line_count(f) == LIMIT + 1
