// Correction for the many comparisons of one run (every metric of every scenario).
#pragma once

#include <vector>

namespace perfgate::stats {

// Holm-Bonferroni adjusted p-values, in the input order: with p sorted ascending,
// adj_(i) = min(1, max_{j <= i} (m - j + 1) p_(j)). Comparing adj < alpha rejects exactly what
// Holm's step-down procedure rejects, and keeps the family-wise error rate at alpha under any
// dependence between the comparisons. Throws std::invalid_argument on a p outside [0, 1].
std::vector<double> holm(const std::vector<double>& p);

}  // namespace perfgate::stats
