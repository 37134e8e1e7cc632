// `perfgate compare`'s text: per metric, a benchstat-style table of the rows of a RunDiff (old
// and new medians with their spread, the change and its interval, the Holm-corrected p), the
// geometric means, and what only one run measured; then the regression gate's rows and verdict.
// The cells are shared with the markdown (compare_markdown.hpp).
#pragma once

#include <array>
#include <ostream>
#include <string>
#include <vector>

#include "gate/run_diff.hpp"
#include "model/results_model.hpp"

namespace perfgate::exports {

// Cells: "+4.8%", "[-1.0%, +2.3%]", "p=0.01 (Holm 0.04)", "passed (exit 0)", a short commit.
std::string pct(double change);
std::string interval(const std::array<double, 2>& ci);
std::string p_text(double p, double p_adjusted);
std::string outcome_text(const gate::RunOutcome& outcome);
std::string commit_text(const std::string& commit, bool dirty);
std::string variants_gated(const gate::DiffOptions& options);
// A row's verdict for people: "better"/"worse" for a row the regression gate judges; any other
// row only says which way it moved ("higher", "lower"); "~" when not significant.
std::string row_verdict(const gate::RunDiff& diff, const gate::DiffRow& row);
// The figure a gate row is judged on ("(raw) " when not drift-corrected) and what its reference moved.
std::string judged_change(const gate::GateRow& row);
std::string reference_moved(const gate::RunDiff& diff, const gate::GateRow& row);

void print_outcomes(std::ostream& out, const gate::RunDiff& diff);
// The commands each run's scenarios ran (ab's, and any scenario's that records them), both runs'
// side by side; returns one warning per scenario whose commands differ between the runs.
std::vector<std::string> print_commands(std::ostream& out, const model::ResultsDoc& old_doc,
                                        const model::ResultsDoc& new_doc);
void print_gate_text(std::ostream& out, const gate::RunDiff& diff, const gate::DiffOptions& options,
                     const gate::GateDecision& decision);

// Returns how many rows are significantly worse.
int print_compare_text(std::ostream& out, const gate::RunDiff& diff, const std::string& old_file,
                       const std::string& new_file, const gate::DiffOptions& options);

}  // namespace perfgate::exports
