// The verdict table printed at the end of `run` and `ab`: scenario, metric, before, after,
// ratio, interval, verdict, gate — read from the results document, so it shows exactly
// what the file holds.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace perfgate::cli {

void print_verdict_table(std::ostream& out, const nlohmann::json& results);

}  // namespace perfgate::cli
