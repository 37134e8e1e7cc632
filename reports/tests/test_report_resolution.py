"""Every verdict with its resolution (issue 11.5): the detectable effect beside "no significant
change", and the hypervisor's steal per variant when the samples carry it."""

from __future__ import annotations

from perfgate_report.report import build_report


def render(factory, doc, tmp_path) -> str:
    path = factory.write(doc, tmp_path / "run" / "results.json")
    return build_report(path, plots=False).read_text()


def test_no_significant_change_is_never_printed_without_its_resolution(factory, tmp_path):
    doc = factory.results([factory.scenario("flat", medians={"before": 50.0, "after": 50.2})])
    sc = doc["scenarios"][0]
    for c in sc["comparisons"]:
        c["detectable_effect"] = 0.043
        c["alpha_corrected"] = 0.0125
    text = render(factory, doc, tmp_path)
    assert "no significant change (would have flagged ≥ 4.3%)" in text
    for line in text.splitlines():
        if "no significant change" in line and line.startswith("|"):
            assert "would have flagged" in line or "too few rounds" in line, line


def test_too_few_rounds_says_so_and_steal_is_summarised(factory, tmp_path):
    doc = factory.results([factory.scenario("short", medians={"before": 50.0, "after": 50.1})])
    sc = doc["scenarios"][0]
    for c in sc["comparisons"]:
        c["detectable_effect"] = None
    for i, s in enumerate(sc["samples"]):
        s["steal_ms"] = 10.0 * (i % 3)
        s["irq_ms"] = 0.0
        s["steal_flagged"] = i % 3 == 2
    text = render(factory, doc, tmp_path)
    assert "too few rounds to detect any change" in text
    assert "**Steal.**" in text and "samples flagged (> 5% of wall lost to the hypervisor)" in text
    measured = [s for s in sc["samples"] if s["variant"] == "before" and not s.get("warmup")]
    flagged = sum(1 for s in measured if s["steal_flagged"])
    assert f"`before`: steal mean" in text and f"{flagged} of {len(measured)} samples flagged" in text


def test_results_without_the_new_fields_render_as_before(factory, tmp_path):
    doc = factory.results([factory.scenario("old", medians={"before": 50.0, "after": 50.1})])
    text = render(factory, doc, tmp_path)
    assert "would have flagged ≥" not in text and "**Steal.**" not in text
