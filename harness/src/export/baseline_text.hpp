// What `perfgate baseline` prints: each change an update or a stamp makes, and the entries of a
// baseline with the host classes their accepted runs came from.
#pragma once

#include <ostream>
#include <vector>

#include "store/baseline_file.hpp"

namespace perfgate::exports {

// "appended  KEY: detail", one line per change.
void print_changes(std::ostream& out, const std::vector<store::BaselineChange>& changes);

// One line per entry, then the count.
void print_baseline_entries(std::ostream& out, const model::Baseline& baseline);

}  // namespace perfgate::exports
