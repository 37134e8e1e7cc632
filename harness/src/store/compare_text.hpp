// `perfgate compare`'s text: per metric, a benchstat-style table of the rows of a RunDiff (old
// and new medians with their spread, the change and its interval, the Holm-corrected p), the
// geometric means, and what only one run measured.
#pragma once

#include <ostream>
#include <string>

#include "gate/run_diff.hpp"

namespace perfgate::store {

// Returns how many rows are significantly worse.
int print_compare_text(std::ostream& out, const gate::RunDiff& diff, const std::string& old_file,
                       const std::string& new_file, const gate::DiffOptions& options);

}  // namespace perfgate::store
