// What `perfgate lies` prints: each lie and how it was caught, then the threat coverage per
// scenario (its threats, n/a classes, lies, what was caught) and the findings.
#pragma once

#include <ostream>
#include <vector>

#include "suite/lies.hpp"
#include "suite/threat_coverage.hpp"

namespace perfgate::suite {

void print_lies(std::ostream& out, const std::vector<LieCheck>& checks);
void print_coverage(std::ostream& out, const CoverageReport& report);

}  // namespace perfgate::suite
