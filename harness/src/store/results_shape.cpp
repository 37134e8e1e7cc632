#include "store/results_shape.hpp"

#include "common/errors.hpp"
#include "store/results_schema.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

// Cross-field: perfgate writes a ratio or an interval end as null only when it is not finite: a
// ratio of medians over a BEFORE that measured zero. Any other null in a gated comparison is
// damage, and a reader that skipped it would drop the comparison from every gate without a word.
void check_gated_nulls(const json& comparison, const json& summaries, const std::string& at, const std::string& file) {
  const std::string before = comparison["baseline"], metric = comparison["metric"];
  const json* summary =
      summaries.contains(before) && summaries[before].contains(metric) ? &summaries[before][metric] : nullptr;
  if (summary && summary->contains("min") && (*summary)["min"].get<double>() == 0.0) return;
  const std::string why = "null in a gated comparison, yet " + before + " measured no zero of " + metric +
                          " (summaries." + before + "." + metric + ".min): only a zero makes it not finite";
  if (comparison["ratio"].is_null()) throw UsageError(file + ": " + at + ".ratio: " + why);
  for (std::size_t k = 0; k < 2; ++k)
    if (comparison["ci"][k].is_null()) throw UsageError(file + ": " + at + ".ci[" + std::to_string(k) + "]: " + why);
}

}  // namespace

void check_results_shape(const json& doc, const std::string& file) {
  if (const auto problem = first_schema_problem(doc))
    throw UsageError(file + ": " + problem->field + ": " + problem->problem);
  const json& scenarios = doc["scenarios"];
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const json& comparisons = scenarios[i]["comparisons"];
    for (std::size_t j = 0; j < comparisons.size(); ++j)
      if (comparisons[j]["gated"].get<bool>())
        check_gated_nulls(comparisons[j], scenarios[i]["summaries"],
                          "scenarios[" + std::to_string(i) + "].comparisons[" + std::to_string(j) + "]", file);
  }
}

}  // namespace perfgate::store
