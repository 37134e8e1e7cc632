// The rows one recorded run adds to the history: its perfgate_runs row, and per scenario a
// point per comparison (kind "ratio") and per variant's median (kind "median").
#pragma once

#include <string>
#include <vector>

#include "history/history_sql.hpp"
#include "model/results_model.hpp"

namespace perfgate::history {

// False when the run is there already (recorded earlier, or by another perfgate right now).
bool insert_run(Sql& sql, const model::ResultsDoc& results, const std::string& source_file);

// `gated`: the run's gated figures, whose medians' intervals are kept with the median points.
void insert_points(Sql& sql, const std::string& run_id, const model::ScenarioResult& s,
                   const std::vector<model::BaselineEntry>& gated);

}  // namespace perfgate::history
