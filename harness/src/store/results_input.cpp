#include "store/results_input.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

void need(bool ok, const std::string& file, const std::string& field, const std::string& problem) {
  if (!ok) throw UsageError(file + ": " + field + ": " + problem);
}

}  // namespace

json load_results(const std::filesystem::path& path) {
  const std::string f = path.string();
  auto text = try_read_file(path);
  if (!text) throw UsageError(f + ": cannot read the results file (does it exist?)");
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) throw UsageError(f + ": not valid JSON (is it a perfgate results file?)");
  need(doc.is_object(), f, "(top level)", "must be an object");
  need(doc.contains("schema_version"), f, "schema_version", "missing (not a perfgate results file?)");
  need(doc["schema_version"] == 1, f, "schema_version",
       "is " + doc["schema_version"].dump() + "; this perfgate reads 1");
  need(doc.contains("run") && doc["run"].is_object(), f, "run", "missing or not an object");
  const json& run = doc["run"];
  need(run.contains("id") && run["id"].is_string(), f, "run.id", "missing or not a string");
  need(run.contains("git") && run["git"].is_object() && run["git"].contains("commit") &&
           run["git"]["commit"].is_string(),
       f, "run.git.commit", "missing or not a string");
  need(doc.contains("host") && doc["host"].is_object(), f, "host", "missing or not an object");
  need(doc["host"].contains("fingerprint") && doc["host"]["fingerprint"].is_string(), f, "host.fingerprint",
       "missing or not a string");
  need(doc.contains("scenarios") && doc["scenarios"].is_array(), f, "scenarios", "missing or not an array");
  for (std::size_t i = 0; i < doc["scenarios"].size(); ++i) {
    const json& s = doc["scenarios"][i];
    const std::string at = "scenarios[" + std::to_string(i) + "]";
    need(s.is_object(), f, at, "must be an object");
    for (const char* k : {"name", "profile"})
      need(s.contains(k) && s[k].is_string(), f, at + "." + k, "missing or not a string");
    for (const char* k : {"comparisons", "samples", "gates"})
      need(s.contains(k) && s[k].is_array(), f, at + "." + k, "missing or not an array");
    need(s.contains("summaries") && s["summaries"].is_object(), f, at + ".summaries", "missing or not an object");
    for (std::size_t j = 0; j < s["comparisons"].size(); ++j) {
      const json& c = s["comparisons"][j];
      const std::string cat = at + ".comparisons[" + std::to_string(j) + "]";
      need(c.is_object(), f, cat, "must be an object");
      for (const char* k : {"variant", "baseline", "metric"})
        need(c.contains(k) && c[k].is_string(), f, cat + "." + k, "missing or not a string");
      need(c.contains("ratio") && (c["ratio"].is_number() || c["ratio"].is_null()), f, cat + ".ratio",
           "missing or not a number");
      need(c.contains("ci") && c["ci"].is_array() && c["ci"].size() == 2, f, cat + ".ci", "must be [lo, hi]");
    }
    for (std::size_t j = 0; j < s["samples"].size(); ++j) {
      const json& x = s["samples"][j];
      const std::string xat = at + ".samples[" + std::to_string(j) + "]";
      need(x.is_object() && x.contains("variant") && x["variant"].is_string(), f, xat + ".variant",
           "missing or not a string");
      need(x.contains("metrics") && x["metrics"].is_object(), f, xat + ".metrics", "missing or not an object");
    }
  }
  return doc;
}

std::string scenario_host_fingerprint(const json& results, const json& scenario) {
  if (scenario.contains("merged_from") && scenario["merged_from"].is_object() &&
      scenario["merged_from"].contains("host_fingerprint"))
    return scenario["merged_from"]["host_fingerprint"].get<std::string>();
  return results["host"].value("fingerprint", "");
}

std::vector<double> measured_values(const json& scenario, const std::string& variant, const std::string& metric) {
  std::vector<std::pair<int, double>> rows;
  for (const auto& x : scenario.value("samples", json::array())) {
    if (x.value("warmup", false) || x.value("variant", "") != variant) continue;
    const json& ms = x["metrics"];
    if (!ms.contains(metric) || !ms[metric].contains("value") || !ms[metric]["value"].is_number()) continue;
    rows.emplace_back(x.value("round", 0), ms[metric]["value"].get<double>());
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> out;
  for (const auto& r : rows) out.push_back(r.second);
  return out;
}

}  // namespace perfgate::store
