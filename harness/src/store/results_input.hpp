// Reading a results file a user hands us (baseline update, compare, merge, history add): it
// must be a results document of a schema version we know. Anything else is bad input (exit 2)
// named by file and field, found before anything is written.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace perfgate::store {

// Parses and checks schema_version 1 and the type of every field perfgate's readers rely on
// (store/results_shape.hpp). Throws UsageError "FILE: FIELD: problem".
nlohmann::json load_results(const std::filesystem::path& path);

}  // namespace perfgate::store
