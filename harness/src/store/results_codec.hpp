// Every key of the results document (docs/results-schema.md), both ways: model values to JSON
// for the results file, and a checked results file (store/results_input.hpp) back to model
// values for every reader. Fields the model does not type travel unchanged (`other`), so a
// file read and written back is equal to the file read.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "gate/baseline_gate.hpp"
#include "model/results_model.hpp"
#include "run/sample.hpp"

namespace perfgate::store {

nlohmann::json to_json(const run::Sample& sample);
nlohmann::json to_json(const model::Summaries& summaries);
nlohmann::json to_json(const model::Comparison& comparison);
nlohmann::json to_json(const model::GateResult& gate);
// The figures behind a baseline gate, for the scenario's `baseline` array.
nlohmann::json to_json(const gate::BaselineCheck& check);
nlohmann::json to_json(const model::ScenarioResult& scenario);
nlohmann::json to_json(const model::ResultsDoc& results);

// From JSON that check_results_shape accepted (a missing optional field takes its default).
run::Sample sample_from_json(const nlohmann::json& j);
model::Summaries summaries_from_json(const nlohmann::json& j);
model::Comparison comparison_from_json(const nlohmann::json& j);
model::GateResult gate_from_json(const nlohmann::json& j);
model::ScenarioResult scenario_from_json(const nlohmann::json& j);
model::ResultsDoc results_from_json(const nlohmann::json& j);

// load_results (schema and shape checked: exit 2 naming file and field) and decoded.
model::ResultsDoc read_results(const std::filesystem::path& path);

}  // namespace perfgate::store
