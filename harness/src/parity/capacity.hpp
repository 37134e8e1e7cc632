// What one server can do beyond the paired comparison: throughput over concurrency 1, 2, 4 …
// (closed loop; the plateau, and the arithmetic check cores ÷ CPU per request against it), and
// latency at fixed offered rates (open loop, so a stalled server shows as latency: achieved
// rate, p50/p90/p99). Run after the timed rounds, over the agreeing requests.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "parity/timed.hpp"

namespace perfgate::parity {

struct CapacityOptions {
  std::vector<int> concurrency = {1, 2, 4, 8, 16, 32, 64, 128};
  double step_s = 0.5;       // the shortest concurrency step and offered-rate window
  double timeout_s = 10;     // per request; a step with timeouts ends the sweep
  double max_window_s = 60;  // an offered rate's window at most; a concurrency step's, half of it
  std::vector<double> rate_shares = {0.25, 0.5, 0.75};  // offered rates, as shares of the plateau
  std::vector<int> load_cpus;
  std::uint64_t seed = 1;
};

// The plateau: the highest throughput, and the first concurrency within 10% of it.
struct Plateau {
  double rps = 0;
  int concurrency = 0;
};
Plateau find_plateau(const std::vector<std::pair<int, double>>& rps_by_concurrency);

nlohmann::json measure_capacity(const Target& t, const std::vector<std::string>& paths, const CapacityOptions& o,
                                std::optional<double> cpu_us_per_request);

}  // namespace perfgate::parity
