// The shape of a results file as docs/results.schema.json describes it: the one description,
// compiled into the binary at build time (results_schema_text.cpp, generated from the file) and
// checked with Debian's valijson. The report's Python checks the same file with jsonschema
// (reports/perfgate_report/schema.py), and both name the same first problem: of every problem,
// the one whose path comes first in the schema's own order of properties (array elements by
// index, keys the schema does not list after those it does, by name), a missing key where it
// would stand. What a schema cannot say is store/results_shape.cpp's.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace perfgate::store {

// docs/results.schema.json as it was when perfgate was built.
const char* results_schema_text();

struct SchemaProblem {
  std::string field;    // "scenarios[0].comparisons[2].ratio"; "(document)" for the whole
  std::string problem;  // "not a number or null (it is a string: \"1.0x\")", "missing (an object)"
};

// The first problem of `doc` against the schema, or none.
std::optional<SchemaProblem> first_schema_problem(const nlohmann::json& doc);

}  // namespace perfgate::store
