// The verdict table printed at the end of `run` and `ab`: scenario, metric, before, after,
// ratio, interval, detectable, verdict, gate — from the results as read back, so it shows
// exactly what the file holds.
#pragma once

#include <ostream>

#include "model/results_model.hpp"

namespace perfgate::store {

void print_verdict_table(std::ostream& out, const model::ResultsDoc& results);

}  // namespace perfgate::store
