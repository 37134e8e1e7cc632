// `perfgate ab --export-json FILE`: hyperfine's JSON export, so what reads hyperfine's file
// (its plotting and statistics scripts) reads perfgate's. Each command once, in hyperfine's
// order (per parameter value, the reference then the others): command, mean, stddev, median,
// user, system, min, max (wall and CPU in seconds, over measured rounds), times, exit_codes and,
// with -P/-L, parameters (values as strings, as hyperfine writes them). perfgate's verdict rides
// along in each result under "perfgate"; perfgate's own document stays where --json puts it.
#pragma once

#include <nlohmann/json.hpp>

#include "model/results_model.hpp"

namespace perfgate::exports {

nlohmann::json hyperfine_json(const model::ResultsDoc& doc);

}  // namespace perfgate::exports
