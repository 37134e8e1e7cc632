#include "store/results_codec.hpp"

#include "common/defaults.hpp"
#include "store/baseline_file.hpp"
#include "store/codec_fields.hpp"
#include "store/results_file.hpp"
#include "store/results_input.hpp"

namespace perfgate::store {

using json = nlohmann::json;

using namespace codec;

json to_json(const run::Sample& s) {
  json metrics = json::object();
  for (const auto& [name, m] : s.metrics) {
    metrics[name] = {{"value", m.value}, {"unit", m.unit}, {"better", name_of(m.better)}, {"source", m.source}};
    if (m.exact) metrics[name]["exact"] = true;
  }
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
  for (const auto& [name, m] : metrics.items()) {
    s.metrics[name] = {m.value("value", 0.0), text(m, "unit", ""), named(m, "better", Better::Lower),
                       text(m, "source", "")};
    s.metrics[name].exact = m.contains("exact") && m["exact"].is_boolean() && m["exact"].get<bool>();
  }
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
      out[variant][name] = {{"n", m.s.n},           {"unit", m.unit},       {"better", name_of(m.better)},
                            {"source", m.source},   {"median", m.s.median}, {"mean", m.s.mean},
                            {"stddev", m.s.stddev}, {"mad", m.s.mad},       {"min", m.s.min},
                            {"max", m.s.max},       {"p50", m.s.p50},       {"p90", m.s.p90},
                            {"p95", m.s.p95},       {"p99", m.s.p99}};
  for (const auto& [variant, metrics] : summaries)
    for (const auto& [name, m] : metrics) {
      if (m.exact) out[variant][name]["exact"] = true;
      if (std::isfinite(m.s.spread)) out[variant][name]["spread"] = m.s.spread;  // none: median 0, or an older file
      if (std::isfinite(m.s.median_ci_coverage)) {  // none for one value, or read from an older file
        out[variant][name]["median_ci"] = m.s.median_ci;
        out[variant][name]["median_ci_coverage"] = m.s.median_ci_coverage;
      }
    }
  return out;
}

model::Summaries summaries_from_json(const json& j) {
  model::Summaries out;
  for (const auto& [variant, metrics] : j.items())
    for (const auto& [name, m] : metrics.items()) {
      auto& ms = out[variant][name];
      ms.unit = text(m, "unit", "");
      ms.better = named(m, "better", Better::Lower);
      ms.exact = m.contains("exact") && m["exact"].is_boolean() && m["exact"].get<bool>();
      ms.source = text(m, "source", "");
      ms.s = {m.value("n", std::size_t{0}), number_or_nan(m, "median"), number_or_nan(m, "mean"),
              number_or_nan(m, "stddev"),   number_or_nan(m, "mad"),    number_or_nan(m, "min"),
              number_or_nan(m, "max"),      number_or_nan(m, "p50"),    number_or_nan(m, "p90"),
              number_or_nan(m, "p95"),      number_or_nan(m, "p99")};
      ms.s.median_ci = interval_of(m, "median_ci");
      ms.s.median_ci_coverage = number_or_nan(m, "median_ci_coverage");
      ms.s.spread = number_or_nan(m, "spread");
    }
  return out;
}

json to_json(const model::Comparison& c) {
  json j = {{"variant", c.variant},
            {"baseline", c.baseline},
            {"metric", c.metric},
            {"unit", c.unit},
            {"better", name_of(c.better)},
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
            {"verdict", std::string(name_of(c.verdict))},
            {"ci_confidence", c.r.ci_confidence},
            {"zero_spread", c.r.zero_spread},
            {"alpha_corrected", c.alpha_corrected}};
  j["detectable_effect"] = c.detectable_effect ? finite_or_null(*c.detectable_effect) : json(nullptr);
  if (c.rounds_to_decide) j["rounds_to_decide"] = *c.rounds_to_decide;
  if (c.gated && c.decision_ci) {
    j["decision_ci"] = {finite_or_null(c.decision_ci->lo), finite_or_null(c.decision_ci->hi)};
    j["decision_confidence"] = c.decision_confidence;
    j["decision_alpha"] = c.decision_alpha;
  }
  if (c.exact) j["exact"] = *c.exact;
  return j;
}

model::Comparison comparison_from_json(const json& j) {
  model::Comparison c;
  c.variant = text(j, "variant", "");
  c.baseline = text(j, "baseline", "");
  c.metric = text(j, "metric", "");
  c.unit = text(j, "unit", "");
  c.better = named(j, "better", Better::Lower);
  c.gated = j.value("gated", false);
  if (j.contains("exact") && j["exact"].is_boolean()) c.exact = j["exact"].get<bool>();
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
  // Files before the three answers said "no significant change": it never claimed "the same".
  c.verdict = named(j, "verdict", stats::Verdict::CannotTell);
  if (j.contains("rounds_to_decide") && j["rounds_to_decide"].is_number_integer())
    c.rounds_to_decide = j["rounds_to_decide"].get<int>();
  c.r.ci_confidence = j.value("ci_confidence", c.confidence);
  c.r.zero_spread = j.value("zero_spread", false);
  c.alpha_corrected = j.value("alpha_corrected", defaults::kAlpha);
  // Files before decision intervals have the 95% interval alone.
  if (j.contains("decision_ci")) {
    const auto d = interval_of(j, "decision_ci");
    c.decision_ci = stats::Interval{d[0], d[1]};
    c.decision_confidence = j.value("decision_confidence", c.r.ci_confidence);
    c.decision_alpha = j.value("decision_alpha", c.alpha_corrected);
  }
  if (j.contains("detectable_effect") && j["detectable_effect"].is_number())
    c.detectable_effect = j["detectable_effect"].get<double>();
  return c;
}

json to_json(const model::GateResult& g) {
  json j = {{"kind", name_of(g.kind)}, {"name", g.name}, {"outcome", name_of(g.outcome)}, {"detail", g.detail}};
  if (g.band) j["band"] = *g.band;
  if (!g.metric.empty()) j["metric"] = g.metric;
  if (g.factor) j["factor"] = *g.factor;
  return j;
}

namespace {

// Files written before gates had an outcome said it as `passed` (true, false, or null when
// nothing was decided) and `cannot_tell`: read as the outcome they meant.
model::GateOutcome outcome_from_json(const json& j) {
  if (j.contains("outcome")) return named(j, "outcome", model::GateOutcome::Undecided);
  if (j.value("cannot_tell", false)) return model::GateOutcome::CannotTell;
  const json passed = j.value("passed", json(nullptr));
  return passed.is_boolean() ? model::passed_if(passed.get<bool>()) : model::GateOutcome::Undecided;
}

}  // namespace

model::GateResult gate_from_json(const json& j) {
  model::GateResult g{named(j, "kind", model::GateKind::Equivalence), text(j, "name", ""), outcome_from_json(j)};
  g.detail = text(j, "detail", "");
  if (j.contains("band") && j["band"].is_number()) g.band = j["band"].get<double>();
  g.metric = text(j, "metric", "");
  if (j.contains("factor") && j["factor"].is_number()) g.factor = j["factor"].get<double>();
  return g;
}

json to_json(const gate::BaselineCheck& c) {
  auto shift = [](const gate::ShiftTest& t) {
    json j = {
        {"change", t.change}, {"ci", t.ci}, {"p", t.p}, {"p_adjusted", t.p_adjusted}, {"verdict", name_of(t.verdict)},
        {"rule", t.rule}};
    if (t.rule != "shift") {
      j["accepted_runs"] = t.accepted_runs;
      j["why"] = t.why;
    }
    if (t.rule == "between-run" || t.rule == "between-machine") j["between_sd"] = t.between_sd;
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

json to_json(const model::HostInfo& h) {
  json host = h.other;
  host["fingerprint"] = h.fingerprint;
  host["cpu_model"] = h.cpu_model;
  host["kernel"] = h.kernel;
  host["cores"] = h.cores;
  if (!h.hostname.empty()) host["hostname"] = h.hostname;
  if (!h.note.empty()) host["note"] = h.note;
  if (!h.load_before.empty()) host["load_before"] = h.load_before;
  if (!h.load_after.empty()) host["load_after"] = h.load_after;
  return host;
}

model::HostInfo host_from_json(const json& host) {
  model::HostInfo h;
  h.fingerprint = text(host, "fingerprint", "");
  h.cpu_model = text(host, "cpu_model", "");
  h.kernel = text(host, "kernel", "");
  h.cores = host.value("cores", 0);
  h.hostname = text(host, "hostname", "");
  h.note = text(host, "note", "");
  h.load_before = list_of<double>(host.value("load_before", json::array()));
  h.load_after = list_of<double>(host.value("load_after", json::array()));
  h.other =
      without(host, {"fingerprint", "cpu_model", "kernel", "cores", "hostname", "note", "load_before", "load_after"});
  return h;
}

namespace {

// run.stop_reason: why the rounds stopped, the outcome's status in the words files have used.
std::string_view stop_reason_word(model::RunStatus s) {
  constexpr auto kWords = in_declaration_order<model::RunStatus>(
      {"running", "completed", "gate failed", "cannot tell", "interrupted", "error"});
  return name_in(kWords, s);
}

}  // namespace

json to_json(const model::ResultsDoc& d) {
  json run = d.run.other;
  run["id"] = d.run.id;
  if (!d.run.profile.empty()) run["profile"] = d.run.profile;
  if (!d.run.started_at.empty()) run["started_at"] = d.run.started_at;
  run["finished_at"] = d.run.finished_at.empty() ? json(nullptr) : json(d.run.finished_at);
  run["stop_reason"] = stop_reason_word(d.outcome.status);
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
  if (d.run.branch) run["branch"] = *d.run.branch;
  if (d.run.git_source) run["git"]["source"] = *d.run.git_source;
  if (d.run.reproduce) run["reproduce"] = *d.run.reproduce;
  // An older file (no perfgate commit) keeps its own spelling when written back (merge).
  if (d.run.perfgate_commit)
    run["perfgate"] = {{"version", d.run.perfgate_version.value_or("unknown")}, {"commit", *d.run.perfgate_commit}};
  else if (d.run.perfgate_version)
    run["perfgate_version"] = *d.run.perfgate_version;
  if (d.run.catalog) run["catalog"] = *d.run.catalog;
  // A merge of shards run with different seeds has none of its own: null (each scenario's
  // reproduce line carries its shard's).
  run["seed"] = d.run.seed ? json(*d.run.seed) : json(nullptr);
  if (d.run.options) run["options"] = *d.run.options;
  if (const auto& b = d.run.baseline)
    run["baseline"] = b->file ? json{{"file", *b->file}, {"exists", b->exists}, {"tolerance", b->tolerance}}
                              : json{{"file", nullptr}, {"why", b->why}};
  if (d.run.started_unix) run["started_unix"] = *d.run.started_unix;
  if (d.run.finished_unix) run["finished_unix"] = *d.run.finished_unix;
  if (d.run.lies) run["lies"] = *d.run.lies;
  if (d.run.against) run["against"] = to_json(*d.run.against);
  if (d.run.batch) run["batch"] = to_json(*d.run.batch);
  if (d.run.bisect) run["bisect"] = to_json(*d.run.bisect);
  if (d.run.lock) run["lock"] = to_json(*d.run.lock);
  json scenarios = json::array();
  for (const auto& s : d.scenarios) scenarios.push_back(to_json(s));
  return {{"schema_version", kSchemaVersion},
          {"run", run},
          {"host", to_json(d.host)},
          {"scenarios", scenarios},
          {"outcome",
           {{"exit_code", d.outcome.exit_code},
            {"status", name_of(d.outcome.status)},
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
  d.run.command_line = list_of<std::string>(run.value("command_line", json::array()));
  d.run.shard = shard_from_json(run.value("shard", json(nullptr)));
  for (const auto& m : run.value("merged_from", json::array()))
    d.run.merged_from.push_back({text(m, "file", ""), text(m, "run_id", ""), text(m, "host_fingerprint", ""),
                                 text(m, "hostname", ""), text(m, "commit", ""),
                                 shard_from_json(m.value("shard", json(nullptr))), m.value("exit_code", 0)});
  auto optional_text = [&](const json& from, const char* key) {
    return from.contains(key) && from[key].is_string() ? std::optional(from[key].get<std::string>()) : std::nullopt;
  };
  auto optional_value = [&](const char* key) { return run.contains(key) ? std::optional(run[key]) : std::nullopt; };
  auto optional_number = [&](const char* key) {
    return run.contains(key) && run[key].is_number() ? std::optional(run[key].get<double>()) : std::nullopt;
  };
  d.run.reproduce = optional_text(run, "reproduce");
  if (run.contains("perfgate") && run["perfgate"].is_object()) {
    d.run.perfgate_version = optional_text(run["perfgate"], "version");
    d.run.perfgate_commit = optional_text(run["perfgate"], "commit");
  } else {
    d.run.perfgate_version = optional_text(run, "perfgate_version");  // written before perfgate.commit was
  }
  d.run.catalog = optional_text(run, "catalog");
  d.run.git_source = optional_text(git, "source");
  d.run.branch = optional_text(run, "branch");
  if (run.contains("seed") && run["seed"].is_number()) d.run.seed = run["seed"].get<std::uint64_t>();
  d.run.options = optional_value("options");
  if (run.contains("baseline") && run["baseline"].is_object()) {
    const json& b = run["baseline"];
    d.run.baseline = model::BaselineRef{optional_text(b, "file"), b.value("exists", false), b.value("tolerance", 0.0),
                                        text(b, "why", "")};
  }
  d.run.started_unix = optional_number("started_unix");
  d.run.finished_unix = optional_number("finished_unix");
  if (run.contains("lies") && run["lies"].is_array()) d.run.lies = list_of<std::string>(run["lies"]);
  d.run.against = against_from_json(run.value("against", json(nullptr)));
  d.run.batch = batch_from_json(run.value("batch", json(nullptr)));
  d.run.bisect = bisect_step_from_json(run.value("bisect", json(nullptr)));
  d.run.lock = lock_from_json(run.value("lock", json(nullptr)));
  d.run.other = without(run, {"id", "profile", "started_at", "finished_at", "stop_reason", "command_line", "shard",
                              "merged_from", "branch", "options", "baseline", "lies", "reproduce", "perfgate_version",
                              "perfgate", "catalog", "seed", "started_unix", "finished_unix"});
  for (const auto& [key, typed] : {std::pair{"against", d.run.against.has_value()},
                                   {"batch", d.run.batch.has_value()},
                                   {"bisect", d.run.bisect.has_value()},
                                   {"lock", d.run.lock.has_value()}})
    if (typed) d.run.other.erase(key);
  d.run.other["git"] = without(git, {"commit", "dirty"});
  if (d.run.git_source) d.run.other["git"].erase("source");
  d.host = host_from_json(j.value("host", json::object()));
  for (const auto& s : j.value("scenarios", json::array())) d.scenarios.push_back(scenario_from_json(s));
  const json outcome = j.value("outcome", json::object());
  d.outcome.exit_code = outcome.value("exit_code", 0);
  d.outcome.status = named(outcome, "status", model::RunStatus::Running);
  d.outcome.message = text(outcome, "message", "");
  for (const auto& f : outcome.value("failures", json::array()))
    if (f.is_string()) d.outcome.failures.push_back(f.get<std::string>());
  return d;
}

model::ResultsDoc read_results(const std::filesystem::path& path) { return results_from_json(load_results(path)); }

}  // namespace perfgate::store
