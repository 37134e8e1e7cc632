"""The report's number formatter against the golden table the C++ one is tested against too
(tests/data/number_format.tsv; ctest -R NumberFormat): one style of figure everywhere."""
import pathlib

from perfgate_report import fmt

GOLDEN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "number_format.tsv"


def golden_rows():
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            value, unit, text = line.split("\t")
            yield float(value), "" if unit == "-" else unit, text


def test_every_row_of_the_golden_table():
    rows = list(golden_rows())
    assert len(rows) >= 40
    text = lambda v, u: fmt.p_value(v) if u == "p-value" else fmt.quantity(v, u)  # noqa: E731
    wrong = [(v, u, text(v, u), t) for v, u, t in rows if text(v, u) != t]
    assert not wrong, wrong


def test_none_is_a_dash():
    assert fmt.quantity(None, "ms") == "—"
