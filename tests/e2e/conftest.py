"""Shared fixtures of the end-to-end CLI tests: where the build is, and a runner for perfgate."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("PERFGATE_BUILD_DIR", ROOT / "build"))
PERFGATE = BUILD / "bin" / "perfgate"
BURN = BUILD / "tests" / "tools" / "burn"
SCHEMA = ROOT / "docs" / "results.schema.json"

# Most end-to-end tests check what a run does (shells, exports, folders, cleanup) in 2-6 rounds,
# which cannot decide a 2% band: their gates end "cannot tell", which is exit 5 by default. They
# ask for exit 0 there, the way a CI job would (the results still record the state). Tests of
# verdicts and exit codes set PERFGATE_CANNOT_TELL=fail (or --cannot-tell) themselves.
os.environ.setdefault("PERFGATE_CANNOT_TELL", "pass")


@pytest.fixture(scope="session")
def perfgate():
    if not PERFGATE.exists():
        pytest.fail(f"{PERFGATE} is missing: build first (scripts/setup.sh)")

    def run(*args, timeout=600, env=None, **kw):
        e = dict(os.environ)
        e.update(env or {})
        return subprocess.run([str(PERFGATE), *map(str, args)], capture_output=True, text=True,
                              timeout=timeout, env=e, **kw)
    return run


@pytest.fixture(scope="session")
def burn():
    if not BURN.exists():
        pytest.fail(f"{BURN} is missing: build first")
    return str(BURN)


@pytest.fixture(scope="session")
def validate():
    import jsonschema
    schema = json.loads(SCHEMA.read_text())

    def check(path):
        doc = json.loads(pathlib.Path(path).read_text())
        jsonschema.validate(doc, schema)
        return doc
    return check


@pytest.fixture(scope="session")
def perfgate_bin():
    return str(PERFGATE)
