"""`python -m perfgate_report` the way the C++ driver runs it."""

from __future__ import annotations


def test_writes_next_to_the_results_and_prints_the_path(factory, standard_doc, tmp_path, run_cli):
    factory.write(standard_doc, tmp_path / "out" / "results.json")
    r = run_cli("out/results.json")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "out/report.md"
    assert (tmp_path / "out" / "report.md").read_text().startswith("# perfgate report — run ")
    assert (tmp_path / "out" / "plots" / "01-keyset_listing-samples.png").exists()
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".perfgate-report-")]


def test_out_dir_is_created_and_can_be_rewritten(factory, tmp_path, run_cli):
    factory.write(factory.results([factory.scenario("a")]), tmp_path / "results.json")
    r = run_cli("results.json", "-o", "deep/er/report")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "deep/er/report/report.md"
    first = (tmp_path / "deep/er/report/report.md").read_text()
    r = run_cli("results.json", "-o", "deep/er/report")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "deep/er/report/report.md").read_text() == first
    assert sorted(p.name for p in (tmp_path / "deep/er/report").iterdir()) == ["plots", "report.md"]


def test_help(run_cli):
    r = run_cli("--help")
    assert r.returncode == 0
    assert "perfgate report" in r.stdout


def test_rewriting_removes_plots_of_scenarios_no_longer_there(factory, tmp_path, run_cli):
    factory.write(factory.results([factory.scenario("a"), factory.scenario("b")]), tmp_path / "results.json")
    assert run_cli("results.json").returncode == 0
    assert (tmp_path / "plots" / "02-b-samples.png").exists()
    (tmp_path / "plots" / "mine.png").write_bytes(b"not ours")
    factory.write(factory.results([factory.scenario("a")]), tmp_path / "results.json")
    assert run_cli("results.json").returncode == 0
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["00-summary.png", "01-a-samples.png", "mine.png"]
