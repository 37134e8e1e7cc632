// What `perfgate ab` prints and exports beside the verdict table, as hyperfine users read it:
// each command's wall time (median, mean ± σ, min … max) and CPU, the ratio of each pair, and
// for a parameter family the ratio at every value. --time-unit chooses the unit of times.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::exports {

// How a command is called in tables and exports: its --command-name, else its command line as
// typed (the words after a shell's -c).
std::string ab_command_label(const model::ScenarioResult& s, const std::string& variant);

// One metric's summary of one variant, null when the scenario has none.
const model::MetricSummary* metric_summary(const model::ScenarioResult& s, const std::string& variant,
                                           const char* metric);

// The -P/-L values substituted into a command (its own: a one-command scan's reference has the
// first value), as strings; empty without parameters.
std::map<std::string, std::string> command_parameters(const model::ScenarioResult& s, const std::string& variant);

// The commands of an ab run as hyperfine lists them: in the order typed, each compared command
// once (two typed alike are two), the reference once per parameter value, though it ran beside
// every command it is paired with (its figures are its first pair's: `pairs` says how many ran it).
struct AbCommand {
  const model::ScenarioResult* scenario;
  std::string variant;  // "before" (the reference) or "after"
  int pairs = 1;        // the reference: how many pairs ran it
  bool reference() const { return variant == "before"; }
};
std::vector<AbCommand> ab_commands(const model::ResultsDoc& doc);

// unit: "microsecond", "millisecond", "second", or empty (chosen from the fastest median).
void print_ab_summary(std::ostream& out, const model::ResultsDoc& doc, const std::string& unit);

// hyperfine's --export-markdown table (Command | Mean | Min | Max | Relative) with perfgate's
// median, ratio and verdict columns beside them.
std::string ab_markdown(const model::ResultsDoc& doc, const std::string& unit);

// hyperfine's --export-csv columns (command, mean, stddev, median, user, system, min, max, in
// seconds) and one column per parameter, then perfgate's ratio, interval and verdict.
std::string ab_csv(const model::ResultsDoc& doc);

}  // namespace perfgate::exports
