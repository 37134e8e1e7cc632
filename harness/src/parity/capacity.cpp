#include "parity/capacity.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "common/interrupt.hpp"
#include "parity/served_server.hpp"

namespace perfgate::parity {

using nlohmann::json;

Plateau find_plateau(const std::vector<std::pair<int, double>>& rps_by_concurrency) {
  Plateau p;
  for (const auto& [c, rps] : rps_by_concurrency) p.rps = std::max(p.rps, rps);
  for (const auto& [c, rps] : rps_by_concurrency)
    if (rps >= 0.9 * p.rps) {
      p.concurrency = c;
      break;
    }
  return p;
}

namespace {

// Waits until the server's cgroup has used under a tenth of its cores for 200 ms (60 s at
// most): a thread-per-connection server keeps computing answers its timed-out clients gave
// up on, and that backlog must not be billed to the next step. Returns the seconds waited.
double wait_idle(const ServedServer& server) {
  const auto start = std::chrono::steady_clock::now();
  const auto budget = std::chrono::seconds(60);
  const double threshold_us = 0.1 * 200e3 * static_cast<double>(std::max<std::size_t>(1, server.cores()));
  for (auto before = server.cpu(); before && std::chrono::steady_clock::now() - start < budget;) {
    check_interrupted();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto after = server.cpu();
    if (!after || static_cast<double>(after->usage_usec - before->usage_usec) < threshold_us) break;
    before = after;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

json measure_capacity(const Target& t, const std::vector<std::string>& paths, const CapacityOptions& o,
                      std::optional<double> cpu_us_per_request) {
  std::vector<std::string> full;
  for (const auto& p : paths) full.push_back(t.url.prefix + p);
  const auto set = load::RequestSet::from_paths(std::move(full)).cycle();
  load::LoadOptions l;
  l.host = t.url.address;
  l.port = t.url.port;
  l.cpus = o.load_cpus;
  l.seed = o.seed;
  l.timeout_s = o.timeout_s;
  l.keep_latencies = true;
  auto load = [&] { return drive(t, l, set); };
  const double cores = t.server ? static_cast<double>(std::max<std::size_t>(1, t.server->cores())) : 1.0;
  // The expected seconds of server CPU for one request (0 when unknown).
  const double request_s = cpu_us_per_request ? *cpu_us_per_request / 1e6 / cores : 0.0;
  json steps = json::array();
  std::vector<std::pair<int, double>> curve;
  std::string stopped;
  for (int c : o.concurrency) {
    l.connections = c;
    // A step lasts for the request set to go round once (its mix, not a few of its requests)
    // and for the queue of c requests to go round three times (half max_window_s at most), after a warm-up
    // of one queue (the server's pool grows to c here, outside the window).
    const double queue_s = c * request_s;
    l.duration_s = std::clamp(std::max(static_cast<double>(paths.size()) * request_s, 3 * queue_s), o.step_s,
                              std::max(o.step_s, o.max_window_s / 2));
    l.warmup_s = std::clamp(queue_s, o.step_s / 4, 5.0);
    const double drained_s = t.server ? wait_idle(*t.server) : 0.0;
    const auto cpu0 = t.server ? t.server->cpu() : std::nullopt;
    const auto r = load();
    const auto cpu1 = t.server ? t.server->cpu() : std::nullopt;
    json s = {{"concurrency", c},
              {"rps", r.rps},
              {"p50_ms", r.latency_ms(0.5)},
              {"p99_ms", r.latency_ms(0.99)},
              {"errors", r.errors + r.timeouts},
              {"window_s", l.duration_s},
              {"drained_s", drained_s}};
    // Includes the step's own warm-up: the step's CPU share, not a timed comparison.
    if (cpu0 && cpu1 && r.responses + r.warmup_responses)
      s["cpu_us_per_request"] = static_cast<double>(cpu1->usage_usec - cpu0->usage_usec) /
                                static_cast<double>(r.responses + r.warmup_responses);
    steps.push_back(s);
    curve.emplace_back(c, r.rps);
    // Past the point where requests wait longer than the client's timeout, a step measures the
    // timeout, not the server: the curve ends here.
    if (r.timeouts > 0) {
      stopped = "stopped after concurrency " + std::to_string(c) + ": " + std::to_string(r.timeouts) +
                " requests waited longer than the " + std::to_string(static_cast<int>(o.timeout_s)) + " s timeout";
      break;
    }
  }
  const Plateau plateau = find_plateau(curve);
  json out = {{"concurrency", steps}, {"plateau", {{"rps", plateau.rps}, {"concurrency", plateau.concurrency}}}};
  if (!stopped.empty()) out["sweep_stopped"] = stopped;
  if (request_s > 0 && t.server) {
    const double predicted = 1.0 / request_s;
    out["arithmetic"] = {{"cores", t.server->cores()},
                         {"cpu_us_per_request", *cpu_us_per_request},
                         {"predicted_rps", predicted},
                         {"plateau_share_of_predicted", plateau.rps / predicted}};
  }
  json offered = json::array();
  l.connections = std::max(4, plateau.concurrency);
  l.warmup_s = o.step_s / 4;
  for (double share : o.rate_shares) {
    l.rate_rps = std::max(0.05, share * plateau.rps);
    // About 30 requests per offered rate, so its p90 is not one request's (max_window_s at most).
    l.duration_s = std::clamp(30.0 / l.rate_rps, o.step_s, std::max(o.step_s, o.max_window_s));
    const double drained_s = t.server ? wait_idle(*t.server) : 0.0;
    const auto r = load();
    offered.push_back({{"offered_rps", l.rate_rps},
                       {"share_of_plateau", share},
                       {"achieved_rps", r.rps},
                       {"p50_ms", r.latency_ms(0.5)},
                       {"p90_ms", r.latency_ms(0.9)},
                       {"p99_ms", r.latency_ms(0.99)},
                       {"queued", r.queued},
                       {"errors", r.errors + r.timeouts},
                       {"window_s", l.duration_s},
                       {"drained_s", drained_s}});
  }
  out["offered"] = offered;
  return out;
}

}  // namespace perfgate::parity
