#include "parity/capacity.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "load/http_load.hpp"
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
  l.duration_s = o.step_s;
  l.warmup_s = o.step_s / 4;
  l.timeout_s = 10;
  l.keep_latencies = true;
  auto load = [&] {
    check_interrupted();
    try {
      return load::run_load(l, set);
    } catch (const std::exception& e) {
      throw RunError("server " + t.name + " (" + t.url.text + "): the load generator failed: " + e.what());
    }
  };
  json steps = json::array();
  std::vector<std::pair<int, double>> curve;
  for (int c : o.concurrency) {
    l.connections = c;
    // A full queue takes c x CPU per request to go round once: the step lasts three rounds of it
    // (10 s at most), after a warm-up of one, or a window shorter than one response would read 0.
    const double round_s = cpu_us_per_request && t.server && t.server->cores() > 0
                               ? c * *cpu_us_per_request / 1e6 / static_cast<double>(t.server->cores())
                               : 0.0;
    l.duration_s = std::max(o.step_s, std::min(10.0, 3 * round_s));
    l.warmup_s = std::max(o.step_s / 4, std::min(5.0, round_s));
    const auto cpu0 = t.server ? t.server->cpu() : std::nullopt;
    const auto r = load();
    const auto cpu1 = t.server ? t.server->cpu() : std::nullopt;
    json s = {{"concurrency", c},
              {"rps", r.rps},
              {"p50_ms", r.latency_ms(0.5)},
              {"p99_ms", r.latency_ms(0.99)},
              {"errors", r.errors + r.timeouts}};
    // Includes the step's own warm-up: the step's CPU share, not a timed comparison.
    if (cpu0 && cpu1 && r.responses + r.warmup_responses)
      s["cpu_us_per_request"] = static_cast<double>(cpu1->usage_usec - cpu0->usage_usec) /
                                static_cast<double>(r.responses + r.warmup_responses);
    steps.push_back(s);
    curve.emplace_back(c, r.rps);
  }
  const Plateau plateau = find_plateau(curve);
  json out = {{"concurrency", steps}, {"plateau", {{"rps", plateau.rps}, {"concurrency", plateau.concurrency}}}};
  if (cpu_us_per_request && *cpu_us_per_request > 0 && t.server && t.server->cores() > 0) {
    const double predicted = static_cast<double>(t.server->cores()) * 1e6 / *cpu_us_per_request;
    out["arithmetic"] = {{"cores", t.server->cores()},
                         {"cpu_us_per_request", *cpu_us_per_request},
                         {"predicted_rps", predicted},
                         {"plateau_share_of_predicted", plateau.rps / predicted}};
  }
  json offered = json::array();
  l.connections = std::max(4, plateau.concurrency);
  l.warmup_s = o.step_s / 4;
  for (double share : o.rate_shares) {
    l.rate_rps = std::max(1.0, share * plateau.rps);
    // About 30 requests per offered rate at least, so its p90 is not one request's (5 s at most).
    l.duration_s = std::max(o.step_s, std::min(5.0, 30.0 / l.rate_rps));
    const auto r = load();
    offered.push_back({{"offered_rps", l.rate_rps},
                       {"share_of_plateau", share},
                       {"achieved_rps", r.rps},
                       {"p50_ms", r.latency_ms(0.5)},
                       {"p90_ms", r.latency_ms(0.9)},
                       {"p99_ms", r.latency_ms(0.99)},
                       {"queued", r.queued}});
  }
  out["offered"] = offered;
  return out;
}

}  // namespace perfgate::parity
