// The shape of a results document (docs/results-schema.md) as perfgate's own readers rely on
// it: every field a reader touches, with its JSON type. Checked once, at load
// (store/results_input.hpp), so no reader meets a wrong-typed field halfway through its work.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace perfgate::store {

// Throws UsageError "FILE: FIELD: problem" naming the first field of the wrong type (or
// missing, when it is required), e.g. "r.json: scenarios[0].comparisons[2].ratio: not a
// number or null (it is a string)".
void check_results_shape(const nlohmann::json& doc, const std::string& file);

}  // namespace perfgate::store
