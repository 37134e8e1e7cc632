// What `perfgate bisect` prints: the range and its settings, every tested commit with its
// verdict, ratio and interval, and the answer.
#pragma once

#include <ostream>

#include "bisect/bisect.hpp"

namespace perfgate::bisect {

void print_report(std::ostream& out, const BisectReport& report, const BisectOptions& options);

}  // namespace perfgate::bisect
