"""The LD_PRELOAD statement counter lib/libperfgate_sqlite.so (docs/parity.md, "Statements counted
outside"), run around known_statements, a C program of exactly seven SQL statements (three by
sqlite3_exec, one prepared SELECT run three times over its rows, one more sqlite3_exec): every
figure asserted is an exact count. The counter inside a parity pass is shown by `perfgate lies
media_parity` (the lie prepared-count, tests/e2e/test_bundled_lies.py)."""
import os
import pathlib
import struct
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from conftest import BUILD  # noqa: E402

KNOWN = BUILD / "libexec" / "perfgate" / "tests" / "known_statements"
COUNTER = BUILD / "lib" / "libperfgate_sqlite.so"


def run_counted(tmp_path, env_extra=None, file_bytes=bytes(16)):
    count = tmp_path / "statements.count"
    count.write_bytes(file_bytes)
    env = dict(os.environ, LD_PRELOAD=str(COUNTER), PERFGATE_SQLITE_COUNT_FILE=str(count))
    env.update(env_extra or {})
    r = subprocess.run([KNOWN], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "6 rows\n"  # the program's own work is untouched
    return struct.unpack("<QQ", count.read_bytes())


def test_counts_each_execution_once_and_not_sqlites_own_steps(tmp_path):
    loaded, statements = run_counted(tmp_path)
    assert loaded == 1
    # Rows stepped over (6) and SQLite's schema reads are not statements: seven, exactly.
    assert statements == 7


def test_counts_add_to_what_the_file_holds_so_perfgate_reads_differences(tmp_path):
    loaded, statements = run_counted(tmp_path, file_bytes=struct.pack("<QQ", 0, 100))
    assert (loaded, statements) == (1, 107)


def test_without_a_count_file_the_program_runs_as_without_the_counter(tmp_path):
    env = dict(os.environ, LD_PRELOAD=str(COUNTER))
    env.pop("PERFGATE_SQLITE_COUNT_FILE", None)
    r = subprocess.run([KNOWN], env=env, capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (0, "6 rows\n"), r.stderr
