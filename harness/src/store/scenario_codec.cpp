// A scenario's entry of the results document, both ways (store/results_codec.hpp).
#include <cmath>
#include <string>
#include <vector>

#include "store/codec_fields.hpp"
#include "store/results_codec.hpp"

namespace perfgate::store {

using namespace codec;

namespace {

// Every key of a scenario's entry the model types; whatever else a file holds goes to `other`.
const std::initializer_list<const char*> kScenarioKeys = {
    "name",       "profile",         "kind",     "policy",        "primary_metric", "title",
    "source",     "summary",         "variants", "params",        "cpus",           "load_before",
    "load_after", "anchors",         "excluded", "notes",         "fixture",        "postgres",
    "commands",   "phases",          "parity",   "steal",         "series",         "extra",
    "stop",       "reproduce",       "samples",  "summaries",     "comparisons",    "gates",
    "error",      "merged_from",     "baseline", "metric_choice", "fingerprint",    "workdirs",
    "sampling",   "series_summaries"};

json to_json(const model::VariantInfo& v) {
  return {{"name", v.name},        {"label", v.label}, {"compare_to", v.compare_to ? json(*v.compare_to) : json()},
          {"sweep", v.sweep},      {"gated", v.gated}, {"equivalence", v.equivalence},
          {"workload", v.workload}};
}

model::VariantInfo variant_from_json(const json& j) {
  model::VariantInfo v;
  v.name = text(j, "name", "");
  v.label = text(j, "label", "");
  if (j.contains("compare_to") && j["compare_to"].is_string()) v.compare_to = j["compare_to"].get<std::string>();
  v.sweep = j.value("sweep", json());
  v.gated = j.value("gated", false);
  v.equivalence = text(j, "equivalence", "digest");
  v.workload = text(j, "workload", "");
  return v;
}

json to_json(const model::Anchor& a) {
  json j = a.declared;
  if (a.ours)
    j["ours"] = {
        {"before", a.ours->before}, {"after", a.ours->after}, {"ratio", a.ours->ratio ? json(*a.ours->ratio) : json()}};
  return j;
}

json to_json(const model::Microbenchmarks& m) {
  json rows = json::array();
  for (const auto& r : m.rows)
    rows.push_back({{"name", r.name},
                    {"real_time", r.real_time},
                    {"cpu_time", r.cpu_time},
                    {"time_unit", r.time_unit},
                    {"iterations", r.iterations}});
  return {{"program", m.program}, {"context", m.context}, {"benchmarks", rows}};
}

json to_json(const model::SeriesSummaries& summaries) {
  json out = json::object();
  for (const auto& [variant, series] : summaries) {
    out[variant] = json::object();
    for (const auto& [name, m] : series)
      out[variant][name] = {{"n", m.s.n},           {"unit", m.unit}, {"median", m.s.median}, {"mean", m.s.mean},
                            {"stddev", m.s.stddev}, {"mad", m.s.mad}, {"min", m.s.min},       {"max", m.s.max},
                            {"p50", m.s.p50},       {"p90", m.s.p90}, {"p95", m.s.p95},       {"p99", m.s.p99}};
  }
  return out;
}

model::SeriesSummaries series_summaries_from_json(const json& j) {
  model::SeriesSummaries out;
  for (const auto& [variant, series] : j.items()) {
    auto& of_variant = out[variant];
    if (!series.is_object()) continue;
    for (const auto& [name, m] : series.items())
      of_variant[name] = {
          {m.value("n", std::size_t{0}), number_or_nan(m, "median"), number_or_nan(m, "mean"),
           number_or_nan(m, "stddev"), number_or_nan(m, "mad"), number_or_nan(m, "min"), number_or_nan(m, "max"),
           number_or_nan(m, "p50"), number_or_nan(m, "p90"), number_or_nan(m, "p95"), number_or_nan(m, "p99")},
          text(m, "unit", "")};
  }
  return out;
}

json to_json(const model::Extra& e) {
  json j = json::object();
  for (const auto& [variant, x] : e.variants) j[variant] = x;
  if (e.gbench_context) j["gbench_context"] = *e.gbench_context;
  if (e.microbenchmarks) j["gbench"] = to_json(*e.microbenchmarks);
  return j;
}

model::Extra extra_from_json(const json& j) {
  model::Extra e;
  for (const auto& [key, x] : j.items())
    if (key == "gbench_context")
      e.gbench_context = x;
    else if (key == "gbench" && x.is_object())
      e.microbenchmarks = microbenchmarks_from_gbench(text(x, "program", ""), x);
    else
      e.variants[key] = x;
  return e;
}

template <typename T>
json to_json(const std::map<std::string, T>& m) {
  json j = json::object();
  for (const auto& [k, v] : m) j[k] = v;
  return j;
}

std::map<std::string, json> objects_of(const json& j) {
  std::map<std::string, json> out;
  for (const auto& [k, v] : j.items()) out[k] = v;
  return out;
}

model::ScenarioResult::BaselineView baseline_view_from_json(const json& b) {
  model::ScenarioResult::BaselineView v;
  v.encoded = b;
  v.metric = text(b, "metric", "");
  v.variant = text(b, "variant", "after");
  v.compared = text(b, "status", "") == "compared";
  v.now_ratio = number_or_nan(b.value("now", json::object()), "ratio");
  v.accepted_ratio = number_or_nan(b.value("baseline", json::object()), "ratio");
  const json change = b.value("ratio_change", json::object());
  v.change = number_or_nan(change, "change");
  v.change_ci = interval_of(change, "ci");
  v.rule = text(change, "rule", "");
  v.verdict = named<stats::Verdict>(change, "verdict");
  const json absolute = b.value("absolute", json::object());
  v.absolute_compared = absolute.value("compared", false);
  const json abs_change = absolute.value("change", json::object());
  v.absolute_change = number_or_nan(abs_change, "change");
  v.absolute_verdict = named<stats::Verdict>(abs_change, "verdict");
  return v;
}

model::ScenarioResult::ChoiceView choice_from_json(const json& j) {
  return {text(j, "metric", ""), text(j, "why", ""), without(j, {"metric", "why"})};
}

// The sections written only for people and the report.
void described_to_json(const model::ScenarioResult& s, json& j) {
  j["title"] = s.title;
  j["source"] = s.source;
  j["summary"] = s.summary;
  j["variants"] = json::array();
  for (const auto& v : s.variants) j["variants"].push_back(to_json(v));
  j["params"] = s.params;
  j["cpus"] = s.cpus;
  j["load_before"] = s.load_before;
  if (s.load_after) j["load_after"] = *s.load_after;
  j["anchors"] = json::array();
  for (const auto& a : s.anchors) j["anchors"].push_back(to_json(a));
  j["excluded"] = json::array();
  for (const auto& x : s.excluded) j["excluded"].push_back({{"what", x.what}, {"why", x.why}});
  j["notes"] = s.notes;
  if (s.fixture) j["fixture"] = *s.fixture;
  if (s.postgres)
    j["postgres"] = {{"server", s.postgres->server},
                     {"version", s.postgres->version},
                     {"throwaway", s.postgres->throwaway},
                     {"template", s.postgres->template_name}};
  if (s.commands) j["commands"] = to_json(*s.commands);
  if (s.workdirs) j["workdirs"] = *s.workdirs;
  if (s.sampling) j["sampling"] = *s.sampling;
  if (s.phases) j["phases"] = *s.phases;
  if (s.parity) {
    j["parity"] = s.parity->agreement;
    if (s.parity->measures) j["parity"]["measures"] = *s.parity->measures;
  }
  if (s.steal) j["steal"] = to_json(*s.steal);
  if (s.series) j["series"] = to_json(*s.series);
  if (s.series_summaries) j["series_summaries"] = to_json(*s.series_summaries);
  if (s.extra) j["extra"] = to_json(*s.extra);
  if (s.stop) j["stop"] = {{"reason", s.stop->reason}, {"rounds", s.stop->rounds}, {"looks", s.stop->looks}};
  if (s.reproduce) j["reproduce"] = *s.reproduce;
  if (!s.fingerprint.empty()) j["fingerprint"] = s.fingerprint;
}

void described_from_json(const json& j, model::ScenarioResult& s) {
  s.title = text(j, "title", "");
  s.source = text(j, "source", "");
  s.summary = text(j, "summary", "");
  for (const auto& v : j.value("variants", json::array())) s.variants.push_back(variant_from_json(v));
  s.params = j.value("params", json::object());
  s.cpus = list_of<int>(j.value("cpus", json::array()));
  s.load_before = list_of<double>(j.value("load_before", json::array()));
  if (j.contains("load_after")) s.load_after = list_of<double>(j["load_after"]);
  s.anchors = anchors_from_json(j.value("anchors", json::array()));
  for (const auto& x : j.value("excluded", json::array()))
    s.excluded.push_back({text(x, "what", ""), text(x, "why", "")});
  s.notes = list_of<std::string>(j.value("notes", json::array()));
  auto section = [&](const char* key) { return j.contains(key) ? std::optional(j[key]) : std::nullopt; };
  s.fixture = section("fixture");
  if (j.contains("postgres") && j["postgres"].is_object()) {
    const json& pg = j["postgres"];
    s.postgres = model::PostgresInfo{text(pg, "server", ""), text(pg, "version", ""), text(pg, "template", ""),
                                     pg.value("throwaway", true)};
  }
  if (j.contains("commands") && j["commands"].is_object()) {
    s.commands.emplace();
    for (const auto& [variant, argv] : j["commands"].items()) (*s.commands)[variant] = list_of<std::string>(argv);
  }
  if (j.contains("workdirs") && j["workdirs"].is_object()) {
    s.workdirs.emplace();
    for (const auto& [variant, dir] : j["workdirs"].items())
      if (dir.is_string()) (*s.workdirs)[variant] = dir.get<std::string>();
  }
  s.sampling = section("sampling");
  if (j.contains("phases")) s.phases = list_of<std::string>(j["phases"]);
  if (j.contains("parity") && j["parity"].is_object()) {
    s.parity = model::Parity{without(j["parity"], {"measures"}), std::nullopt};
    if (j["parity"].contains("measures")) s.parity->measures = j["parity"]["measures"];
  }
  if (j.contains("steal") && j["steal"].is_object()) s.steal = objects_of(j["steal"]);
  if (j.contains("series") && j["series"].is_object()) s.series = objects_of(j["series"]);
  if (j.contains("series_summaries") && j["series_summaries"].is_object())
    s.series_summaries = series_summaries_from_json(j["series_summaries"]);
  if (j.contains("extra") && j["extra"].is_object()) s.extra = extra_from_json(j["extra"]);
  if (j.contains("stop") && j["stop"].is_object()) {
    const json& stop = j["stop"];
    const std::string reason = text(stop, "reason", "");
    s.stop = model::Stop{run::StopReason::kind_of_reason(reason), reason, stop.value("rounds", 0),
                         list_of<int>(stop.value("looks", json()))};
  }
  if (j.contains("reproduce") && j["reproduce"].is_string()) s.reproduce = j["reproduce"].get<std::string>();
  s.fingerprint = text(j, "fingerprint", "");
}

}  // namespace

json to_json(const model::ScenarioResult& s) {
  json j = s.other;
  j["name"] = s.name;
  j["profile"] = s.profile;
  if (s.kind) j["kind"] = name_of(*s.kind);
  if (s.policy) j["policy"] = name_of(*s.policy);
  if (!s.primary_metric.empty()) j["primary_metric"] = s.primary_metric;
  described_to_json(s, j);
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
  if (!s.baseline.empty()) {
    j["baseline"] = json::array();
    for (const auto& b : s.baseline) j["baseline"].push_back(b.encoded);
  }
  if (s.metric_choice) {
    j["metric_choice"] = s.metric_choice->figures;
    j["metric_choice"]["metric"] = s.metric_choice->metric;
    j["metric_choice"]["why"] = s.metric_choice->why;
  }
  return j;
}

model::ScenarioResult scenario_from_json(const json& j) {
  model::ScenarioResult s;
  s.name = text(j, "name", "");
  s.profile = text(j, "profile", "");
  s.kind = named<catalog::ScenarioKind>(j, "kind");
  s.policy = named<catalog::Policy>(j, "policy");
  s.primary_metric = text(j, "primary_metric", "");
  described_from_json(j, s);
  for (const auto& v : s.variants) s.variant_names.push_back(v.name);
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
  for (const auto& b : j.value("baseline", json::array())) s.baseline.push_back(baseline_view_from_json(b));
  if (j.contains("metric_choice") && j["metric_choice"].is_object())
    s.metric_choice = choice_from_json(j["metric_choice"]);
  s.other = without(j, kScenarioKeys);
  return s;
}

model::ScenarioResult::BaselineView baseline_view(const gate::BaselineCheck& check) {
  return baseline_view_from_json(to_json(check));
}

model::ScenarioResult::ChoiceView choice_view(const gate::MetricChoice& choice) {
  return choice_from_json(gate::to_json(choice));
}

std::vector<model::Anchor> anchors_from_json(const json& anchors) {
  std::vector<model::Anchor> out;
  for (const auto& a : anchors.is_array() ? anchors : json::array()) {
    if (!a.is_object()) continue;
    model::Anchor x{text(a, "metric", ""), text(a, "before_variant", "before"), text(a, "after_variant", "after"),
                    without(a, {"ours"}), std::nullopt};
    if (a.contains("ours") && a["ours"].is_object()) {
      const json& o = a["ours"];
      x.ours = model::Anchor::Ours{number_or_nan(o, "before"), number_or_nan(o, "after"), std::nullopt};
      if (o.contains("ratio") && o["ratio"].is_number()) x.ours->ratio = o["ratio"].get<double>();
    }
    out.push_back(std::move(x));
  }
  return out;
}

model::Microbenchmarks microbenchmarks_from_gbench(const std::string& program, const json& out) {
  model::Microbenchmarks m;
  m.program = program;
  m.context = out.value("context", json::object());
  for (const auto& b : out.value("benchmarks", json::array()))
    m.rows.push_back({text(b, "name", ""), b.value("real_time", 0.0), b.value("cpu_time", 0.0),
                      text(b, "time_unit", "ns"), b.value("iterations", std::int64_t{0})});
  return m;
}

}  // namespace perfgate::store
