// A results file that vouches for itself: a run killed mid-way (SIGKILL, out of memory, a lost
// CI runner) leaves `outcome.status: "running"` and `exit_code: 0` behind, and a shard that died
// lacks scenarios its plan listed. Merge, history add and baseline update refuse such files
// (exit 2, naming what is missing), so a dead runner never reads as green; report shows it in
// large type at the top.
#pragma once

#include <optional>
#include <string>

#include "model/results_model.hpp"

namespace perfgate::store {

// What keeps the file from vouching for itself ("FIELD: why"), or nothing when it can.
std::optional<std::string> incompleteness(const model::ResultsDoc& doc);

// Throws UsageError "FILE: FIELD: why" unless the run finished and holds every scenario its
// shard planned. An interrupted run (Ctrl-C, exit 130) is refused as interrupted.
void require_complete(const model::ResultsDoc& doc, const std::string& file);

// Throws UsageError "FILE: run.options.debug_samples: ..." when the run's samples were scripted
// (`--debug-samples`, run/sample_script.hpp): its figures measure nothing, so they must never
// become a baseline or a point of the history.
void require_measured(const model::ResultsDoc& doc, const std::string& file);

// Empty when a gate comparing runs may use the file; otherwise "FILE: why". Beyond complete, a
// gate vouches for nothing a run did not measure, so a run that errored (or a scenario that
// could not run) cannot pass it either.
std::string why_not_gateable(const model::ResultsDoc& doc, const std::string& file);

}  // namespace perfgate::store
