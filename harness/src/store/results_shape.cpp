#include "store/results_shape.hpp"

#include "common/json_fields.hpp"
#include "model/results_model.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

// perfgate writes a ratio or an interval end as null only when it is not finite: a ratio of
// medians over a BEFORE that measured zero. Any other null in a gated comparison is damage, and
// a reader that skipped it would drop the comparison from every gate without a word.
void check_gated_nulls(const FieldReader& comparison, const json& summaries) {
  const json& x = comparison.object();
  const std::string before = x["baseline"].get<std::string>(), metric = x["metric"].get<std::string>();
  const json* summary = nullptr;
  if (summaries.contains(before) && summaries[before].contains(metric)) summary = &summaries[before][metric];
  const bool zero_seen =
      summary && summary->contains("min") && (*summary)["min"].is_number() && (*summary)["min"].get<double>() == 0.0;
  if (zero_seen) return;
  const std::string why = "null in a gated comparison, yet " + before + " measured no zero of " + metric +
                          " (summaries." + before + "." + metric + ".min): only a zero makes it not finite";
  if (x["ratio"].is_null()) comparison.fail("ratio", why);
  for (std::size_t k = 0; k < 2; ++k)
    if (x["ci"][k].is_null()) comparison.fail(FieldReader::index("ci", k), why);
}

// A kind is one of its enum's names (perfgate/enum_names.hpp), which the codec reads.
template <typename E>
void check_named(const FieldReader& r, const char* key) {
  if (r.has(key)) r.enum_of<E>(key);
}

// Every member of `section` (summaries.after, a sample's metrics) an object of `rules`, its
// direction named.
void check_members(const FieldReader& section, std::initializer_list<KindRule> rules) {
  for (const auto& name : section.keys()) {
    section.child(name).kinds(rules);
    check_named<Better>(section.child(name), "better");
  }
}

// scenarios[].baseline[]: the figures behind each baseline gate, which the verdict table and
// the step summary read back.
void check_baseline_views(const FieldReader& s) {
  for (const FieldReader& view : s.elements("baseline")) {
    view.kinds({{"metric", kString},
                {"variant", kString},
                {"status", kString},
                {"now", kObject},
                {"baseline", kObject},
                {"ratio_change", kObject},
                {"absolute", kObject}});
    view.optional_child("absolute").kinds({{"compared", kBool}, {"change", kObject}});
  }
}

void check_comparison(const FieldReader& x, const json& summaries) {
  x.kinds({{"variant", kString, true},
           {"baseline", kString, true},
           {"metric", kString, true},
           {"ratio", kNumber | kNull, true},
           {"ci", kArray, true},
           {"gated", kBool},
           {"better", kString},
           {"unit", kString},
           {"n", kInteger},
           {"verdict", kString},
           {"confidence", kNumber},
           {"p_wilcoxon", kNumber | kNull},
           {"p_wilcoxon_adjusted", kNumber | kNull},
           {"log_scale", kBool},
           {"zero_spread", kBool},
           {"ci_confidence", kNumber},
           {"alpha_corrected", kNumber},
           {"detectable_effect", kNumber | kNull}});
  check_named<Better>(x, "better");
  check_named<stats::Verdict>(x, "verdict");
  const json& ci = x.object()["ci"];
  if (ci.size() != 2) x.fail("ci", "must be [lo, hi]");
  for (std::size_t k = 0; k < 2; ++k) x.kind_at(FieldReader::index("ci", k), ci[k], kNumber | kNull);
  if (x.object().value("gated", false)) check_gated_nulls(x, summaries);
}

void check_sample(const FieldReader& x) {
  x.kinds({{"variant", kString, true},
           {"metrics", kObject, true},
           {"round", kInteger},
           {"warmup", kBool},
           {"order", kInteger},
           {"digest", kString},
           {"exit_code", kInteger},
           {"steal_ms", kNumber | kNull},
           {"irq_ms", kNumber},
           {"steal_flagged", kBool}});
  check_members(x.child("metrics"),
                {{"value", kNumber, true}, {"unit", kString}, {"better", kString}, {"source", kString}});
}

// A scenario's own sections beside its comparisons, samples and gates.
void check_scenario_sections(const FieldReader& s) {
  s.optional_child("error").kinds({{"exit_code", kInteger}, {"message", kString}});
  s.optional_child("merged_from")
      .kinds({{"file", kString}, {"run_id", kString}, {"host_fingerprint", kString}, {"shard", kObject | kNull}});
  s.optional_child("stop").kinds({{"reason", kString}, {"rounds", kInteger}, {"looks", kArray}});
  s.optional_child("postgres").kinds({{"throwaway", kBool}});
  check_baseline_views(s);
  for (const FieldReader& v : s.elements("variants"))
    v.kinds({{"name", kString, true}, {"compare_to", kString | kNull}, {"gated", kBool}});
  const FieldReader summaries = s.child("summaries");
  for (const auto& variant : summaries.keys())
    check_members(summaries.child(variant),
                  {{"median", kNumber | kNull}, {"n", kInteger}, {"unit", kString}, {"better", kString}});
}

void check_scenario(const FieldReader& s) {
  s.kinds({{"name", kString, true},
           {"profile", kString, true},
           {"comparisons", kArray, true},
           {"samples", kArray, true},
           {"gates", kArray, true},
           {"summaries", kObject, true},
           {"kind", kString},
           {"policy", kString},
           {"primary_metric", kString},
           {"variants", kArray},
           {"error", kObject},
           {"merged_from", kObject},
           {"stop", kObject},
           {"notes", kArray},
           {"excluded", kArray},
           {"baseline", kArray},
           {"reproduce", kString},
           {"params", kObject},
           {"cpus", kArray}});
  // The sections written for people and the report, which the codec types too.
  s.kinds({{"title", kString},
           {"source", kString},
           {"summary", kString},
           {"anchors", kArray},
           {"load_before", kArray},
           {"load_after", kArray},
           {"commands", kObject},
           {"workdirs", kObject},
           {"sampling", kObject},
           {"phases", kArray},
           {"parity", kObject},
           {"postgres", kObject},
           {"steal", kObject},
           {"series", kObject},
           {"extra", kObject},
           {"metric_choice", kObject}});
  check_named<catalog::ScenarioKind>(s, "kind");
  check_named<catalog::Policy>(s, "policy");
  check_scenario_sections(s);
  for (const FieldReader& x : s.elements("comparisons")) check_comparison(x, s.object()["summaries"]);
  for (const FieldReader& x : s.elements("samples")) check_sample(x);
  for (const FieldReader& g : s.elements("gates")) {
    g.kinds({{"kind", kString}, {"name", kString}, {"passed", kBool | kNull}, {"detail", kString}});
    check_named<model::GateKind>(g, "kind");
  }
}

// The run's sections the codec types beyond the commit: a wrong-typed field inside them would
// otherwise surface as a JSON library error halfway through decoding.
void check_run_sections(const FieldReader& run) {
  run.optional_child("perfgate").kinds({{"version", kString}, {"commit", kString}});
  run.optional_child("baseline")
      .kinds({{"file", kString | kNull}, {"exists", kBool}, {"tolerance", kNumber}, {"why", kString}});
  for (const FieldReader& m : run.elements("merged_from"))
    m.kinds({{"file", kString}, {"run_id", kString}, {"shard", kObject | kNull}, {"exit_code", kInteger}});
}

void check_run(const FieldReader& run) {
  run.kinds({{"id", kString, true},
             {"git", kObject},
             {"started_at", kString},
             {"finished_at", kString | kNull},
             {"command_line", kArray},
             {"stop_reason", kString},
             {"profile", kString},
             {"seed", kNumber | kNull},
             {"options", kObject},
             {"shard", kObject | kNull},
             {"merged_from", kArray},
             {"against", kObject},
             {"baseline", kObject},
             {"reproduce", kString},
             {"perfgate_version", kString},
             {"perfgate", kObject},
             {"catalog", kString},
             {"branch", kString},
             {"started_unix", kNumber},
             {"finished_unix", kNumber},
             {"lies", kArray}});
  // The commit is what every reader keys on; name it when the whole git object is missing.
  if (!run.has("git")) run.fail("git.commit", "missing (a string)");
  run.child("git").kinds({{"commit", kString, true}, {"dirty", kBool}});
  run.optional_child("shard").kinds(
      {{"index", kInteger}, {"count", kInteger}, {"scenarios", kArray}, {"of", kInteger}});
  check_run_sections(run);
}

}  // namespace

void check_results_shape(const json& doc, const std::string& file) {
  const FieldReader top(doc, file);
  // In the order people read a results file, so the first problem named is the topmost one.
  top.kinds({{"schema_version", kInteger, true}, {"run", kObject, true}});
  check_run(top.child("run"));
  top.kinds({{"host", kObject, true}});
  top.child("host").kinds({{"fingerprint", kString, true},
                           {"hostname", kString},
                           {"cpu_model", kString},
                           {"cores", kInteger},
                           {"kernel", kString}});
  top.kinds({{"scenarios", kArray, true}, {"outcome", kObject}});
  top.optional_child("outcome").kinds(
      {{"exit_code", kInteger}, {"status", kString}, {"message", kString}, {"failures", kArray}});
  for (const FieldReader& s : top.elements("scenarios")) check_scenario(s);
}

}  // namespace perfgate::store
