// The shape of a results document as perfgate's own readers rely on it, checked once, at load
// (store/results_input.hpp), so no reader meets a wrong-typed field halfway through its work:
// docs/results.schema.json (store/results_schema.hpp, the one description, which the report's
// Python checks too), then what a schema cannot say, as named checks beside it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace perfgate::store {

// Throws UsageError "FILE: FIELD: problem" naming the first problem, e.g. "r.json:
// scenarios[0].comparisons[2].ratio: not a number or null (it is a string: \"1.0x\")".
void check_results_shape(const nlohmann::json& doc, const std::string& file);

}  // namespace perfgate::store
