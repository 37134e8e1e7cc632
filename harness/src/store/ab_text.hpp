// What `perfgate ab` prints and exports beside the verdict table, as hyperfine users read it:
// each command's wall time (median, mean ± σ, min … max) and CPU, the ratio of each pair, and
// for a parameter family the ratio at every value. --time-unit chooses the unit of times.
#pragma once

#include <ostream>
#include <string>

#include "model/results_model.hpp"

namespace perfgate::store {

// How a command is called in tables and exports: its --command-name, else its command line as
// typed (the words after a shell's -c).
std::string ab_command_label(const model::ScenarioResult& s, const std::string& variant);

// unit: "microsecond", "millisecond", "second", or empty (chosen from the fastest median).
void print_ab_summary(std::ostream& out, const model::ResultsDoc& doc, const std::string& unit);

// hyperfine's --export-markdown table (Command | Mean | Min | Max | Relative) with perfgate's
// median, ratio and verdict columns beside them.
std::string ab_markdown(const model::ResultsDoc& doc, const std::string& unit);

// hyperfine's --export-csv columns (command, mean, stddev, median, user, system, min, max, in
// seconds) and one column per parameter, then perfgate's ratio, interval and verdict.
std::string ab_csv(const model::ResultsDoc& doc);

}  // namespace perfgate::store
