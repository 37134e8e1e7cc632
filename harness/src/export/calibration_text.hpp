// What `perfgate calibrate` prints: the calibration document (suite/calibration.hpp) as a
// plain-text table, one line per workload and metric; with --layouts, how far layout alone moves
// the program (store/layout_spread.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "store/layout_spread.hpp"

namespace perfgate::exports {

void print_calibration(std::ostream& out, const nlohmann::json& doc);
void print_layout_spread(std::ostream& out, const store::LayoutSpread& spread);

}  // namespace perfgate::exports
