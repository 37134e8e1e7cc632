// What `perfgate lies` prints: each lie and how it was caught, then the threat coverage per
// scenario (its threats, n/a classes, lies, what was caught) and the findings; and the command
// from its words to those tables and its --json file.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "suite/lies.hpp"
#include "suite/threat_coverage.hpp"

namespace perfgate::suite {

void print_lies(std::ostream& out, const std::vector<LieCheck>& checks);
void print_coverage(std::ostream& out, const CoverageReport& report);

// The lies of `names` in the catalog at `catalog_dir` (empty: the bundled one) checked with the
// progress line, both tables printed, and written to `json_path` when given. The exit code.
int run_lies_command(std::ostream& out, const std::string& catalog_dir, const std::vector<std::string>& names,
                     const LiesOptions& options, const std::vector<std::string>& argv, const std::string& json_path);

}  // namespace perfgate::suite
