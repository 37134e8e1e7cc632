#include "store/results_codec.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "store/baseline_file.hpp"
#include "store/results_file.hpp"
#include "store/results_input.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A string field, or `fallback` when it is missing or not a string (older files wrote some as null).
std::string text(const json& j, const char* key, const char* fallback) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : fallback;
}

// What is not finite is written as null, and null reads back as NaN.
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
double number_or_nan(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : kNaN;
}

// [lo, hi], an end that is null (not finite when written) read as NaN.
std::array<double, 2> interval_of(const json& j, const char* key) {
  const json ci = j.value(key, json::array());
  auto end = [&](std::size_t i) { return ci.size() == 2 && ci[i].is_number() ? ci[i].get<double>() : kNaN; };
  return {end(0), end(1)};
}

stats::Verdict verdict_of(const std::string& s) {
  return s == "better" ? stats::Verdict::Better : s == "worse" ? stats::Verdict::Worse : stats::Verdict::NoChange;
}

// The keys a typed section owns; everything else of the object goes to `other`.
json without(const json& j, std::initializer_list<const char*> keys) {
  json out = j;
  for (const char* k : keys) out.erase(k);
  return out;
}

const std::initializer_list<const char*> kScenarioKeys = {"name",           "profile", "kind",       "policy",
                                                          "primary_metric", "samples", "summaries",  "comparisons",
                                                          "gates",          "error",   "merged_from"};

json to_json(const std::optional<model::Shard>& s) {
  if (!s) return nullptr;
  return {{"index", s->index}, {"count", s->count}, {"scenarios", s->scenarios}, {"of", s->of}};
}

std::optional<model::Shard> shard_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  model::Shard s{j.value("index", 0), j.value("count", 0), j.value("of", 0), {}};
  for (const auto& x : j.value("scenarios", json::array()))
    if (x.is_string()) s.scenarios.push_back(x.get<std::string>());
  return s;
}

std::vector<std::string> strings_of(const json& j) {
  std::vector<std::string> out;
  for (const auto& x : j.is_array() ? j : json::array())
    if (x.is_string()) out.push_back(x.get<std::string>());
  return out;
}

}  // namespace

json to_json(const run::Sample& s) {
  json metrics = json::object();
  for (const auto& [name, m] : s.metrics)
    metrics[name] = {{"value", m.value}, {"unit", m.unit}, {"better", m.better}, {"source", m.source}};
  json j = {{"round", s.round},         {"variant", s.variant}, {"warmup", s.warmup}, {"order", s.order},
            {"exit_code", s.exit_code}, {"digest", s.digest},   {"metrics", metrics}};
  if (s.steal_ms) {
    j["steal_ms"] = *s.steal_ms;
    j["irq_ms"] = s.irq_ms.value_or(0);
    j["steal_flagged"] = s.steal_flagged;
  }
  return j;
}

run::Sample sample_from_json(const json& j) {
  run::Sample s;
  s.round = j.value("round", 0);
  s.variant = text(j, "variant", "");
  s.warmup = j.value("warmup", false);
  s.order = j.value("order", 0);
  s.exit_code = j.value("exit_code", 0);
  s.digest = text(j, "digest", "");
  const json metrics = j.value("metrics", json::object());
  for (const auto& [name, m] : metrics.items())
    s.metrics[name] = {m.value("value", 0.0), text(m, "unit", ""), text(m, "better", "lower"), text(m, "source", "")};
  if (j.contains("steal_ms") && j["steal_ms"].is_number()) {
    s.steal_ms = j["steal_ms"].get<double>();
    s.irq_ms = j.value("irq_ms", 0.0);
    s.steal_flagged = j.value("steal_flagged", false);
  }
  return s;
}

json to_json(const model::Summaries& summaries) {
  json out = json::object();
  for (const auto& [variant, metrics] : summaries)
    for (const auto& [name, m] : metrics)
      out[variant][name] = {{"n", m.s.n},           {"unit", m.unit},   {"better", m.better},   {"source", m.source},
                            {"median", m.s.median}, {"mean", m.s.mean}, {"stddev", m.s.stddev}, {"mad", m.s.mad},
                            {"min", m.s.min},       {"max", m.s.max},   {"p50", m.s.p50},       {"p90", m.s.p90},
                            {"p95", m.s.p95},       {"p99", m.s.p99}};
  return out;
}

model::Summaries summaries_from_json(const json& j) {
  model::Summaries out;
  for (const auto& [variant, metrics] : j.items())
    for (const auto& [name, m] : metrics.items()) {
      auto& ms = out[variant][name];
      ms.unit = text(m, "unit", "");
      ms.better = text(m, "better", "");
      ms.source = text(m, "source", "");
      ms.s = {m.value("n", std::size_t{0}), number_or_nan(m, "median"), number_or_nan(m, "mean"),
              number_or_nan(m, "stddev"),   number_or_nan(m, "mad"),    number_or_nan(m, "min"),
              number_or_nan(m, "max"),      number_or_nan(m, "p50"),    number_or_nan(m, "p90"),
              number_or_nan(m, "p95"),      number_or_nan(m, "p99")};
    }
  return out;
}

json to_json(const model::Comparison& c) {
  json j = {{"variant", c.variant},
            {"baseline", c.baseline},
            {"metric", c.metric},
            {"unit", c.unit},
            {"better", c.better},
            {"gated", c.gated},
            {"n", c.r.n},
            {"ratio", finite_or_null(c.r.ratio)},
            {"ci", {finite_or_null(c.r.ci.lo), finite_or_null(c.r.ci.hi)}},
            {"confidence", c.confidence},
            {"log_scale", c.r.log_scale},
            {"p_wilcoxon", c.r.p_wilcoxon},
            {"wilcoxon_method", c.r.wilcoxon_method},
            {"p_wilcoxon_adjusted", c.p_adjusted},
            {"p_mann_whitney", c.r.p_mann_whitney},
            {"verdict", stats::to_string(c.verdict)},
            {"ci_confidence", c.r.ci_confidence},
            {"zero_spread", c.r.zero_spread},
            {"alpha_corrected", c.alpha_corrected}};
  j["detectable_effect"] = c.detectable_effect ? finite_or_null(*c.detectable_effect) : json(nullptr);
  return j;
}

model::Comparison comparison_from_json(const json& j) {
  model::Comparison c;
  c.variant = text(j, "variant", "");
  c.baseline = text(j, "baseline", "");
  c.metric = text(j, "metric", "");
  c.unit = text(j, "unit", "");
  c.better = text(j, "better", "lower");
  c.gated = j.value("gated", false);
  c.r.n = j.value("n", std::size_t{0});
  c.r.ratio = number_or_nan(j, "ratio");
  const auto ci = interval_of(j, "ci");
  c.r.ci = {ci[0], ci[1]};
  c.confidence = j.value("confidence", 0.95);
  c.r.log_scale = j.value("log_scale", false);
  c.r.p_wilcoxon = number_or_nan(j, "p_wilcoxon");
  c.r.wilcoxon_method = text(j, "wilcoxon_method", "");
  c.p_adjusted = number_or_nan(j, "p_wilcoxon_adjusted");
  c.r.p_mann_whitney = number_or_nan(j, "p_mann_whitney");
  c.verdict = verdict_of(text(j, "verdict", ""));
  c.r.ci_confidence = j.value("ci_confidence", c.confidence);
  c.r.zero_spread = j.value("zero_spread", false);
  c.alpha_corrected = j.value("alpha_corrected", 0.05);
  if (j.contains("detectable_effect") && j["detectable_effect"].is_number())
    c.detectable_effect = j["detectable_effect"].get<double>();
  return c;
}

json to_json(const model::GateResult& g) {
  json j = {{"kind", g.kind}, {"name", g.name}, {"detail", g.detail}};
  j["passed"] = g.passed ? json(*g.passed) : json(nullptr);
  if (g.band) j["band"] = *g.band;
  return j;
}

model::GateResult gate_from_json(const json& j) {
  model::GateResult g{text(j, "kind", ""), text(j, "name", "")};
  if (j.contains("passed") && j["passed"].is_boolean()) g.passed = j["passed"].get<bool>();
  g.detail = text(j, "detail", "");
  if (j.contains("band") && j["band"].is_number()) g.band = j["band"].get<double>();
  return g;
}

json to_json(const gate::BaselineCheck& c) {
  auto shift = [](const gate::ShiftTest& t) {
    json j = {{"change", t.change},         {"ci", t.ci},           {"p", t.p},
              {"p_adjusted", t.p_adjusted}, {"verdict", t.verdict}, {"rule", t.rule}};
    if (t.rule != "shift") {
      j["accepted_runs"] = t.accepted_runs;
      j["why"] = t.why;
    }
    if (t.rule == "between-run") j["between_sd"] = t.between_sd;
    if (t.rule == "kept-share") {
      j["kept_share"] = t.kept_share;
      j["kept_share_best"] = t.kept_share_best;
    }
    return j;
  };
  json j = {{"metric", c.now.metric},
            {"variant", c.now.variant},
            {"compare_to", c.now.compare_to},
            {"now",
             {{"ratio", c.now.ratio},
              {"ci", c.now.ci},
              {"after_median", c.now.after_median},
              {"after_median_ci", c.now.after_median_ci},
              {"host_fingerprint", c.now.host_fingerprint},
              {"host_class", c.now.host_class()}}},
            {"status", c.comparable ? "compared" : "no comparable baseline"},
            {"tolerance", c.tolerance}};
  if (!c.comparable) j["why"] = c.why;
  if (c.entry) j["baseline"] = to_json(*c.entry);
  if (c.comparable) j["ratio_change"] = shift(c.ratio);
  j["absolute"] = {{"compared", c.absolute_compared}, {"why", c.absolute_why}};
  if (c.absolute_compared) j["absolute"]["change"] = shift(c.absolute);
  return j;
}

json to_json(const model::ScenarioResult& s) {
  json j = s.other;
  j["name"] = s.name;
  j["profile"] = s.profile;
  if (!s.kind.empty()) j["kind"] = s.kind;
  if (!s.policy.empty()) j["policy"] = s.policy;
  if (!s.primary_metric.empty()) j["primary_metric"] = s.primary_metric;
  j["samples"] = json::array();
  for (const auto& x : s.samples) j["samples"].push_back(to_json(x));
  j["summaries"] = to_json(s.summaries);
  j["comparisons"] = json::array();
  for (const auto& c : s.comparisons) j["comparisons"].push_back(to_json(c));
  j["gates"] = json::array();
  for (const auto& g : s.gates) j["gates"].push_back(to_json(g));
  if (s.error) {
    j["error"] = {{"exit_code", s.error->exit_code}, {"message", s.error->message}};
    if (s.error->stderr_tail) j["error"]["stderr_tail"] = *s.error->stderr_tail;
  }
  if (s.merged_from)
    j["merged_from"] = {{"file", s.merged_from->file},
                        {"run_id", s.merged_from->run_id},
                        {"host_fingerprint", s.merged_from->host_fingerprint},
                        {"shard", to_json(s.merged_from->shard)}};
  return j;
}

model::ScenarioResult scenario_from_json(const json& j) {
  model::ScenarioResult s;
  s.name = text(j, "name", "");
  s.profile = text(j, "profile", "");
  s.kind = text(j, "kind", "");
  s.policy = text(j, "policy", "");
  s.primary_metric = text(j, "primary_metric", "");
  for (const auto& v : j.value("variants", json::array())) s.variant_names.push_back(text(v, "name", ""));
  for (const auto& x : j.value("samples", json::array())) s.samples.push_back(sample_from_json(x));
  s.summaries = summaries_from_json(j.value("summaries", json::object()));
  for (const auto& c : j.value("comparisons", json::array())) s.comparisons.push_back(comparison_from_json(c));
  for (const auto& g : j.value("gates", json::array())) s.gates.push_back(gate_from_json(g));
  if (j.contains("error") && j["error"].is_object()) {
    const json& e = j["error"];
    s.error = model::ScenarioResult::Error{e.value("exit_code", 4), text(e, "message", "error"), std::nullopt};
    if (e.contains("stderr_tail") && e["stderr_tail"].is_string())
      s.error->stderr_tail = e["stderr_tail"].get<std::string>();
  }
  if (j.contains("merged_from") && j["merged_from"].is_object()) {
    const json& m = j["merged_from"];
    s.merged_from = {text(m, "file", ""), text(m, "run_id", ""), text(m, "host_fingerprint", ""),
                     shard_from_json(m.value("shard", json(nullptr)))};
  }
  for (const auto& b : j.value("baseline", json::array())) {
    model::ScenarioResult::BaselineView v;
    v.metric = text(b, "metric", "");
    v.variant = text(b, "variant", "after");
    v.compared = text(b, "status", "") == "compared";
    v.now_ratio = number_or_nan(b.value("now", json::object()), "ratio");
    v.accepted_ratio = number_or_nan(b.value("baseline", json::object()), "ratio");
    const json change = b.value("ratio_change", json::object());
    v.change = number_or_nan(change, "change");
    v.change_ci = interval_of(change, "ci");
    v.rule = text(change, "rule", "");
    v.verdict = text(change, "verdict", "-");
    const json absolute = b.value("absolute", json::object());
    v.absolute_compared = absolute.value("compared", false);
    const json abs_change = absolute.value("change", json::object());
    v.absolute_change = number_or_nan(abs_change, "change");
    v.absolute_verdict = text(abs_change, "verdict", "");
    s.baseline.push_back(v);
  }
  if (j.contains("metric_choice") && j["metric_choice"].is_object())
    s.metric_choice = {text(j["metric_choice"], "metric", ""), text(j["metric_choice"], "why", "")};
  s.other = without(j, kScenarioKeys);
  return s;
}

json to_json(const model::ResultsDoc& d) {
  json run = d.run.other;
  run["id"] = d.run.id;
  if (!d.run.profile.empty()) run["profile"] = d.run.profile;
  if (!d.run.started_at.empty()) run["started_at"] = d.run.started_at;
  run["finished_at"] = d.run.finished_at.empty() ? json(nullptr) : json(d.run.finished_at);
  if (!d.run.stop_reason.empty()) run["stop_reason"] = d.run.stop_reason;
  run["command_line"] = d.run.command_line;
  if (d.run.shard) run["shard"] = to_json(d.run.shard);
  if (!d.run.merged_from.empty()) {
    run["merged_from"] = json::array();
    for (const auto& m : d.run.merged_from)
      run["merged_from"].push_back({{"file", m.file},
                                    {"run_id", m.run_id},
                                    {"shard", to_json(m.shard)},
                                    {"host_fingerprint", m.host_fingerprint},
                                    {"hostname", m.hostname},
                                    {"commit", m.commit},
                                    {"exit_code", m.exit_code}});
  }
  run["git"]["commit"] = d.run.commit;
  run["git"]["dirty"] = d.run.dirty;
  json host = d.host.other;
  host["fingerprint"] = d.host.fingerprint;
  host["cpu_model"] = d.host.cpu_model;
  host["kernel"] = d.host.kernel;
  host["cores"] = d.host.cores;
  if (!d.host.hostname.empty()) host["hostname"] = d.host.hostname;
  if (!d.host.note.empty()) host["note"] = d.host.note;
  if (!d.host.load_before.empty()) host["load_before"] = d.host.load_before;
  if (!d.host.load_after.empty()) host["load_after"] = d.host.load_after;
  json scenarios = json::array();
  for (const auto& s : d.scenarios) scenarios.push_back(to_json(s));
  return {{"schema_version", kSchemaVersion},
          {"run", run},
          {"host", host},
          {"scenarios", scenarios},
          {"outcome",
           {{"exit_code", d.outcome.exit_code},
            {"status", d.outcome.status},
            {"message", d.outcome.message},
            {"failures", d.outcome.failures}}}};
}

model::ResultsDoc results_from_json(const json& j) {
  model::ResultsDoc d;
  const json& run = j.at("run");
  d.run.id = text(run, "id", "");
  const json& git = run.value("git", json::object());
  d.run.commit = text(git, "commit", "unknown");
  d.run.dirty = git.value("dirty", false);
  d.run.profile = text(run, "profile", "");
  d.run.started_at = text(run, "started_at", "");
  const json finished = run.value("finished_at", json(nullptr));
  d.run.finished_at = finished.is_string() ? finished.get<std::string>() : "";
  d.run.stop_reason = text(run, "stop_reason", "");
  d.run.command_line = strings_of(run.value("command_line", json::array()));
  d.run.shard = shard_from_json(run.value("shard", json(nullptr)));
  for (const auto& m : run.value("merged_from", json::array()))
    d.run.merged_from.push_back({text(m, "file", ""), text(m, "run_id", ""), text(m, "host_fingerprint", ""),
                                 text(m, "hostname", ""), text(m, "commit", ""),
                                 shard_from_json(m.value("shard", json(nullptr))), m.value("exit_code", 0)});
  d.run.other = without(
      run, {"id", "profile", "started_at", "finished_at", "stop_reason", "command_line", "shard", "merged_from"});
  d.run.other["git"] = without(git, {"commit", "dirty"});
  const json& host = j.value("host", json::object());
  d.host.fingerprint = text(host, "fingerprint", "");
  d.host.cpu_model = text(host, "cpu_model", "");
  d.host.kernel = text(host, "kernel", "");
  d.host.cores = host.value("cores", 0);
  d.host.hostname = text(host, "hostname", "");
  d.host.note = text(host, "note", "");
  auto loads = [&](const char* key) {
    std::vector<double> out;
    for (const auto& x : host.value(key, json::array()))
      if (x.is_number()) out.push_back(x.get<double>());
    return out;
  };
  d.host.load_before = loads("load_before");
  d.host.load_after = loads("load_after");
  d.host.other =
      without(host, {"fingerprint", "cpu_model", "kernel", "cores", "hostname", "note", "load_before", "load_after"});
  for (const auto& s : j.value("scenarios", json::array())) d.scenarios.push_back(scenario_from_json(s));
  const json outcome = j.value("outcome", json::object());
  d.outcome.exit_code = outcome.value("exit_code", 0);
  d.outcome.status = text(outcome, "status", "running");
  d.outcome.message = text(outcome, "message", "");
  for (const auto& f : outcome.value("failures", json::array()))
    if (f.is_string()) d.outcome.failures.push_back(f.get<std::string>());
  return d;
}

model::ResultsDoc read_results(const std::filesystem::path& path) { return results_from_json(load_results(path)); }

}  // namespace perfgate::store
