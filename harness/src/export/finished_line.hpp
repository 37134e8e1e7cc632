// One line per finished scenario for a log that has no live line (CI): its name, how it ended,
// its gated figure and its seconds, so a job that runs for minutes is never silent. The
// performance verdicts come with the table at the end: Holm decides them across the whole run,
// so a scenario's own figure is all that is known when it finishes.
#pragma once

#include <string>

#include "model/results_model.hpp"

namespace perfgate::exports {

// "upload_spool/quick: 20 rounds (clear at look 2 (round 20)), wall_ms 0.98x [0.95, 1.01], 12.3 s"
std::string finished_line(const model::ScenarioResult& s, double seconds);

}  // namespace perfgate::exports
