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
    measured = [s for s in sc["samples"] if s["variant"] == "before" and not s.get("warmup")]
    flagged = sum(1 for s in measured if s["steal_flagged"])
    sc["steal"] = {"before": steal_summary(len(measured), flagged, share=0.37)}
    text = render(factory, doc, tmp_path)
    assert "too few rounds to detect any change" in text
    assert "**Steal.**" in text and "samples flagged (> 5% of wall lost to the hypervisor)" in text
    assert f"`before`: steal mean" in text and f"{flagged} of {len(measured)} samples flagged" in text


def steal_summary(samples, flagged, share=None, mean=4.2, peak=20.0):
    """A scenario's steal section as run::summarise_steal writes it."""
    out = {"samples": samples, "steal_ms_mean": mean, "steal_ms_max": peak, "irq_ms_mean": 0.0,
           "flagged_samples": flagged, "flag_share": 0.05}
    if share is not None:
        out["wall_variance_explained_by_steal"] = share
    return out


def test_the_steal_figures_are_the_harness_s(factory, tmp_path):
    """The share of the wall variance steal explains has one definition, the harness's
    (run::summarise_steal): the report prints the results' figures, never its own from the samples."""
    doc = factory.results([factory.scenario("stolen", medians={"before": 50.0, "after": 50.1})])
    sc = doc["scenarios"][0]
    for i, s in enumerate(sc["samples"]):  # steal that tracks wall exactly: a correlation would say 100%
        s["steal_ms"] = s["metrics"]["wall_ms"]["value"] / 10
        s["steal_flagged"] = True
    sc["steal"] = {"before": steal_summary(8, 8, share=0.19, mean=5.0, peak=5.5),
                   "after": steal_summary(8, 3, mean=0.25, peak=1.5)}  # no share: a service's samples
    text = render(factory, doc, tmp_path)
    assert ("- `before`: steal mean 5.00 ms/sample (max 5.50 ms), 8 of 8 samples flagged (> 5% of wall lost to the "
            "hypervisor); steal explains 19% of the wall variance") in text
    assert "- `after`: steal mean 250 µs/sample (max 1.50 ms), 3 of 8 samples flagged" in text
    assert text.count("steal explains") == 1


def test_results_without_the_new_fields_render_as_before(factory, tmp_path):
    doc = factory.results([factory.scenario("old", medians={"before": 50.0, "after": 50.1})])
    text = render(factory, doc, tmp_path)
    assert "would have flagged ≥" not in text and "**Steal.**" not in text
