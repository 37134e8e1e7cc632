// What `perfgate calibrate` prints: the calibration document (suite/calibration.hpp) as a
// plain-text table, one line per workload and metric.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace perfgate::exports {

void print_calibration(std::ostream& out, const nlohmann::json& doc);

}  // namespace perfgate::exports
