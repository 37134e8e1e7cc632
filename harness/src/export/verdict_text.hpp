// The verdict table printed at the end of `run` and `ab`: one row per gate with its own result,
// then informational rows (verdict_rows.hpp) — from the results as read back, so it shows exactly
// what the file holds. On a terminal (`fit`) at most 120 columns (long scenario and metric
// names are abbreviated in the middle); in a log or a file, which have no width, every name in
// full. Colour only when asked (a terminal without NO_COLOR: cli decides).
#pragma once

#include <ostream>

#include "model/results_model.hpp"

namespace perfgate::exports {

inline constexpr std::size_t kTableWidth = 120;

void print_verdict_table(std::ostream& out, const model::ResultsDoc& results, bool colour = false, bool fit = true);

}  // namespace perfgate::exports
