#include "store/results_shape.hpp"

#include <initializer_list>

#include "common/errors.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

enum Kind : unsigned { kString = 1, kNumber = 2, kInteger = 4, kBool = 8, kObject = 16, kArray = 32, kNull = 64 };

struct Field {
  const char* key;
  unsigned kinds;
  bool required = false;
};

bool is(const json& v, unsigned kinds) {
  return ((kinds & kString) && v.is_string()) || ((kinds & kNumber) && v.is_number()) ||
         ((kinds & kInteger) && v.is_number_integer()) || ((kinds & kBool) && v.is_boolean()) ||
         ((kinds & kObject) && v.is_object()) || ((kinds & kArray) && v.is_array()) || ((kinds & kNull) && v.is_null());
}

std::string kinds_text(unsigned kinds) {
  static const std::pair<unsigned, const char*> names[] = {
      {kString, "a string"},  {kNumber, "a number"}, {kInteger, "an integer"}, {kBool, "a boolean"},
      {kObject, "an object"}, {kArray, "an array"},  {kNull, "null"}};
  std::string out;
  for (const auto& [k, name] : names)
    if (kinds & k) out += (out.empty() ? "" : " or ") + std::string(name);
  return out;
}

class Checker {
 public:
  explicit Checker(const std::string& file) : file_(file) {}

  void fields(const json& obj, const std::string& at, std::initializer_list<Field> list) const {
    for (const auto& f : list) {
      const std::string path = at.empty() ? f.key : at + "." + f.key;
      if (!obj.contains(f.key)) {
        if (f.required) fail(path, "missing or not " + kinds_text(f.kinds));
        continue;
      }
      is_a(obj[f.key], path, f.kinds);
    }
  }

  void is_a(const json& v, const std::string& path, unsigned kinds) const {
    if (!is(v, kinds)) fail(path, "not " + kinds_text(kinds) + " (it is " + std::string(v.type_name()) + ")");
  }

  void fail(const std::string& path, const std::string& problem) const {
    throw UsageError(file_ + ": " + path + ": " + problem);
  }

 private:
  const std::string& file_;
};

std::string at_index(const std::string& at, std::size_t i) { return at + "[" + std::to_string(i) + "]"; }

// perfgate writes a ratio or an interval end as null only when it is not finite: a ratio of
// medians over a BEFORE that measured zero. Any other null in a gated comparison is damage, and
// a reader that skipped it would drop the comparison from every gate without a word.
void check_gated_nulls(const Checker& c, const json& x, const json& summaries, const std::string& at) {
  const std::string before = x["baseline"].get<std::string>(), metric = x["metric"].get<std::string>();
  const json* summary = nullptr;
  if (summaries.contains(before) && summaries[before].contains(metric)) summary = &summaries[before][metric];
  const bool zero_seen =
      summary && summary->contains("min") && (*summary)["min"].is_number() && (*summary)["min"].get<double>() == 0.0;
  if (zero_seen) return;
  const std::string why = "null in a gated comparison, yet " + before + " measured no zero of " + metric +
                          " (summaries." + before + "." + metric + ".min): only a zero makes it not finite";
  if (x["ratio"].is_null()) c.fail(at + ".ratio", why);
  for (std::size_t k = 0; k < 2; ++k)
    if (x["ci"][k].is_null()) c.fail(at_index(at + ".ci", k), why);
}

// scenarios[].baseline[]: the figures behind each baseline gate, which the verdict table and
// the step summary read back.
void check_baseline_views(const Checker& c, const json& views, const std::string& at) {
  for (std::size_t i = 0; i < views.size(); ++i) {
    const std::string bat = at_index(at, i);
    c.is_a(views[i], bat, kObject);
    c.fields(views[i], bat,
             {{"metric", kString},
              {"variant", kString},
              {"status", kString},
              {"now", kObject},
              {"baseline", kObject},
              {"ratio_change", kObject},
              {"absolute", kObject}});
    if (views[i].contains("absolute"))
      c.fields(views[i]["absolute"], bat + ".absolute", {{"compared", kBool}, {"change", kObject}});
  }
}

void check_scenario(const Checker& c, const json& s, const std::string& at) {
  c.fields(s, at,
           {{"name", kString, true},
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
  c.fields(s, at,
           {{"title", kString},
            {"source", kString},
            {"summary", kString},
            {"anchors", kArray},
            {"load_before", kArray},
            {"load_after", kArray},
            {"commands", kObject},
            {"phases", kArray},
            {"parity", kObject},
            {"postgres", kObject},
            {"steal", kObject},
            {"series", kObject},
            {"extra", kObject},
            {"metric_choice", kObject}});
  if (s.contains("error")) c.fields(s["error"], at + ".error", {{"exit_code", kInteger}, {"message", kString}});
  if (s.contains("merged_from"))
    c.fields(s["merged_from"], at + ".merged_from",
             {{"file", kString}, {"run_id", kString}, {"host_fingerprint", kString}, {"shard", kObject | kNull}});
  if (s.contains("stop"))
    c.fields(s["stop"], at + ".stop", {{"reason", kString}, {"rounds", kInteger}, {"looks", kArray}});
  if (s.contains("postgres")) c.fields(s["postgres"], at + ".postgres", {{"throwaway", kBool}});
  check_baseline_views(c, s.value("baseline", json::array()), at + ".baseline");
  const json& variants = s.value("variants", json::array());
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const std::string vat = at_index(at + ".variants", i);
    c.is_a(variants[i], vat, kObject);
    c.fields(variants[i], vat, {{"name", kString, true}, {"compare_to", kString | kNull}, {"gated", kBool}});
  }
  for (const auto& [variant, metrics] : s["summaries"].items()) {
    const std::string vat = at + ".summaries." + variant;
    c.is_a(metrics, vat, kObject);
    for (const auto& [metric, m] : metrics.items()) {
      c.is_a(m, vat + "." + metric, kObject);
      c.fields(m, vat + "." + metric,
               {{"median", kNumber | kNull}, {"n", kInteger}, {"unit", kString}, {"better", kString}});
    }
  }
  for (std::size_t j = 0; j < s["comparisons"].size(); ++j) {
    const json& x = s["comparisons"][j];
    const std::string cat = at_index(at + ".comparisons", j);
    c.is_a(x, cat, kObject);
    c.fields(x, cat,
             {{"variant", kString, true},
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
    if (x["ci"].size() != 2) c.fail(cat + ".ci", "must be [lo, hi]");
    for (std::size_t k = 0; k < 2; ++k) c.is_a(x["ci"][k], at_index(cat + ".ci", k), kNumber | kNull);
    if (x.value("gated", false)) check_gated_nulls(c, x, s["summaries"], cat);
  }
  for (std::size_t j = 0; j < s["samples"].size(); ++j) {
    const json& x = s["samples"][j];
    const std::string xat = at_index(at + ".samples", j);
    c.is_a(x, xat, kObject);
    c.fields(x, xat,
             {{"variant", kString, true},
              {"metrics", kObject, true},
              {"round", kInteger},
              {"warmup", kBool},
              {"order", kInteger},
              {"digest", kString},
              {"exit_code", kInteger},
              {"steal_ms", kNumber | kNull},
              {"irq_ms", kNumber},
              {"steal_flagged", kBool}});
    for (const auto& [metric, m] : x["metrics"].items()) {
      c.is_a(m, xat + ".metrics." + metric, kObject);
      c.fields(m, xat + ".metrics." + metric,
               {{"value", kNumber, true}, {"unit", kString}, {"better", kString}, {"source", kString}});
    }
  }
  for (std::size_t j = 0; j < s["gates"].size(); ++j) {
    const std::string gat = at_index(at + ".gates", j);
    c.is_a(s["gates"][j], gat, kObject);
    c.fields(s["gates"][j], gat,
             {{"kind", kString}, {"name", kString}, {"passed", kBool | kNull}, {"detail", kString}});
  }
}

// The run's sections the codec types beyond the commit: a wrong-typed field inside them would
// otherwise surface as a JSON library error halfway through decoding.
void check_run_sections(const Checker& c, const json& run) {
  if (run.contains("perfgate")) c.fields(run["perfgate"], "run.perfgate", {{"version", kString}, {"commit", kString}});
  if (run.contains("baseline"))
    c.fields(run["baseline"], "run.baseline",
             {{"file", kString | kNull}, {"exists", kBool}, {"tolerance", kNumber}, {"why", kString}});
  const json& merged = run.value("merged_from", json::array());
  for (std::size_t i = 0; i < merged.size(); ++i) {
    const std::string at = at_index("run.merged_from", i);
    c.is_a(merged[i], at, kObject);
    c.fields(merged[i], at,
             {{"file", kString}, {"run_id", kString}, {"shard", kObject | kNull}, {"exit_code", kInteger}});
  }
}

}  // namespace

void check_results_shape(const json& doc, const std::string& file) {
  const Checker c(file);
  c.is_a(doc, "(top level)", kObject);
  // In the order people read a results file, so the first problem named is the topmost one.
  c.fields(doc, "", {{"schema_version", kInteger, true}, {"run", kObject, true}});
  const json& run = doc["run"];
  c.fields(run, "run", {{"id", kString, true},
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
  if (!run.contains("git")) c.fail("run.git.commit", "missing or not a string");
  c.fields(run["git"], "run.git", {{"commit", kString, true}, {"dirty", kBool}});
  if (run.contains("shard") && run["shard"].is_object())
    c.fields(run["shard"], "run.shard",
             {{"index", kInteger}, {"count", kInteger}, {"scenarios", kArray}, {"of", kInteger}});
  check_run_sections(c, run);
  c.fields(doc, "", {{"host", kObject, true}});
  c.fields(doc["host"], "host",
           {{"fingerprint", kString, true},
            {"hostname", kString},
            {"cpu_model", kString},
            {"cores", kInteger},
            {"kernel", kString}});
  c.fields(doc, "", {{"scenarios", kArray, true}, {"outcome", kObject}});
  if (doc.contains("outcome"))
    c.fields(doc["outcome"], "outcome",
             {{"exit_code", kInteger}, {"status", kString}, {"message", kString}, {"failures", kArray}});
  for (std::size_t i = 0; i < doc["scenarios"].size(); ++i) {
    const std::string at = at_index("scenarios", i);
    c.is_a(doc["scenarios"][i], at, kObject);
    check_scenario(c, doc["scenarios"][i], at);
  }
}

}  // namespace perfgate::store
