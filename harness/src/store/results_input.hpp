// Reading a results file a user hands us (baseline update, compare, merge, history add): it
// must be a results document of a schema version we know. Anything else is bad input (exit 2)
// named by file and field, found before anything is written.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace perfgate::store {

// Parses and checks schema_version 1 and the type of every field perfgate's readers rely on
// (store/results_shape.hpp). Throws UsageError "FILE: FIELD: problem".
nlohmann::json load_results(const std::filesystem::path& path);

// The host fingerprint a scenario was measured on: its own (merged shards may come from
// several perf VMs) or the run's.
std::string scenario_host_fingerprint(const nlohmann::json& results, const nlohmann::json& scenario);

// The measured (non-warm-up) values of one variant's metric, in round order.
std::vector<double> measured_values(const nlohmann::json& scenario, const std::string& variant,
                                    const std::string& metric);

}  // namespace perfgate::store
