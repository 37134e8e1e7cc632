// Every key of the results document (docs/results-schema.md), both ways: model values to JSON
// for the results file, and a checked results file (store/results_input.hpp) back to model
// values for every reader. Fields the model does not type travel unchanged (`other`), so a
// file read and written back is equal to the file read. results_codec.cpp: the document, its
// header and host, samples, summaries, comparisons, gates; scenario_codec.cpp: a scenario's
// entry and its sections.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gate/baseline_gate.hpp"
#include "gate/metric_choice.hpp"
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
nlohmann::json to_json(const model::HostInfo& host);
nlohmann::json to_json(const model::ResultsDoc& results);

// From JSON that check_results_shape accepted (a missing optional field takes its default).
run::Sample sample_from_json(const nlohmann::json& j);
model::Summaries summaries_from_json(const nlohmann::json& j);

model::Comparison comparison_from_json(const nlohmann::json& j);
model::GateResult gate_from_json(const nlohmann::json& j);
model::ScenarioResult scenario_from_json(const nlohmann::json& j);
model::HostInfo host_from_json(const nlohmann::json& j);  // also measure::to_json(HostInfo)'s
model::ResultsDoc results_from_json(const nlohmann::json& j);

// What a scenario's entry keeps of values made elsewhere: the baseline gate's figures, the
// metric `ab --metric auto` chose, a manifest's anchors (the results entry holds them under the
// manifest's own keys, `ours` added), and a Google Benchmark binary's output (--benchmark_out).
model::ScenarioResult::BaselineView baseline_view(const gate::BaselineCheck& check);
model::ScenarioResult::ChoiceView choice_view(const gate::MetricChoice& choice);
std::vector<model::Anchor> anchors_from_json(const nlohmann::json& anchors);
model::Microbenchmarks microbenchmarks_from_gbench(const std::string& program, const nlohmann::json& out);

// load_results (schema and shape checked: exit 2 naming file and field) and decoded.
model::ResultsDoc read_results(const std::filesystem::path& path);

}  // namespace perfgate::store
