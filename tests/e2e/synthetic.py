"""Synthetic results documents (schema version 1) for tests that need many runs without
running anything: history series with an injected step, inputs for `baseline update`."""
import json


def results(run_id, commit, started_at, ratio, scenario="synthetic", metric="cpu_ms", host="f00dfeedf00dfeed",
            n=10, after_median=None):
    after_median = ratio * 100 if after_median is None else after_median
    samples = []
    for i in range(n):
        for v, value in (("before", 100.0 + i * 0.01), ("after", after_median + i * 0.01)):
            samples.append({"round": i + 1, "variant": v, "warmup": False, "order": 0, "exit_code": 0,
                            "digest": "d", "metrics": {metric: {"value": value, "unit": "ms", "better": "lower",
                                                                "source": "synthetic"}}})
    summary = lambda m: {"n": n, "unit": "ms", "better": "lower", "source": "synthetic", "median": m, "mean": m,
                         "p50": m, "p99": m}
    return {
        "schema_version": 1,
        "run": {"id": run_id, "started_at": started_at, "finished_at": started_at, "command_line": ["synthetic"],
                "reproduce": "synthetic", "git": {"commit": commit, "dirty": False}, "profile": "quick", "seed": 1,
                "options": {}, "stop_reason": "completed"},
        "host": {"fingerprint": host, "hostname": "test", "cpu_model": "synthetic", "cores": 2, "kernel": "k",
                 "cgroup": {"layout": "none", "cpu_source": "rusage", "memory_source": "rusage"},
                 "load_before": [0, 0, 0], "load_after": [0, 0, 0]},
        "scenarios": [{
            "name": scenario, "title": scenario, "kind": "batch", "profile": "quick", "policy": "no-regress",
            "primary_metric": metric, "variants": [{"name": "before"}, {"name": "after", "compare_to": "before"}],
            "samples": samples, "summaries": {"before": {metric: summary(100.0)}, "after": {metric: summary(after_median)}},
            "comparisons": [{"variant": "after", "baseline": "before", "metric": metric, "unit": "ms", "better": "lower",
                             "gated": True, "n": n, "ratio": ratio, "ci": [ratio * 0.99, ratio * 1.01],
                             "confidence": 0.95, "log_scale": True, "p_wilcoxon": 0.002, "wilcoxon_method": "exact",
                             "p_wilcoxon_adjusted": 0.002, "p_mann_whitney": 0.0002,
                             "verdict": "better" if ratio < 0.98 else "worse" if ratio > 1.02 else "no significant change"}],
            "gates": [{"kind": "equivalence", "name": "same work", "passed": True, "detail": "synthetic"}],
            "excluded": [], "stop": {"reason": "max rounds", "rounds": n}}],
        "outcome": {"exit_code": 0, "status": "passed", "message": "passed", "failures": []},
    }


def write(path, doc):
    path.write_text(json.dumps(doc))
    return path
