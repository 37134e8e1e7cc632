#include "store/results_input.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "store/results_shape.hpp"

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
  check_results_shape(doc, f);
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
