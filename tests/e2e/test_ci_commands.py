"""The issue-7 commands answer --help and refuse bad usage with exit 2."""
import pytest


@pytest.mark.parametrize("cmd", [["baseline"], ["baseline", "update"], ["baseline", "check"], ["compare"], ["merge"],
                                 ["batch"], ["history"], ["history", "add"], ["history", "show"]])
def test_help(perfgate, cmd):
    r = perfgate(*cmd, "--help")
    assert r.returncode == 0 and "Usage" in r.stdout


@pytest.mark.parametrize("args", [["baseline"], ["compare", "one.json"], ["merge"], ["batch", "plan.json"],
                                  ["history", "show"], ["run", "--baseline-tolerance", "-1"]])
def test_bad_usage_is_exit_2(perfgate, args):
    assert perfgate(*args).returncode == 2
