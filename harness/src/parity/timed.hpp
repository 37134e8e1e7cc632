// The timed comparison of a parity run: paired rounds, each server in turn (in a seeded random
// order) warmed up outside the window, then loaded over the agreeing requests only for one
// window. When perfgate started the server, its cgroup's usage over the window divided by the
// responses of that window is its CPU per request. Meanwhile a sampler fetches a few of the
// agreeing requests and checks their key-path fingerprint against the agreement pass's: a
// body that went hollow after the agreement pass stops the comparison.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "load/http_load.hpp"
#include "parity/http_client.hpp"

namespace perfgate::parity {

class ServedServer;

struct Target {
  std::string name;  // "A", "B"
  BaseUrl url;
  const ServedServer* server = nullptr;       // null: perfgate did not start it (no CPU figures)
  std::map<std::string, std::string> shapes;  // path -> fingerprint from the agreement pass
};

struct TimedOptions {
  int rounds = 8;
  double warmup_s = 0.5, window_s = 1.0;
  int connections = 4;
  std::vector<int> load_cpus;
  std::uint64_t seed = 1;
  int fingerprint_samples = 6;  // per window
};

struct Window {
  std::uint64_t responses = 0, errors = 0, body_bytes = 0, sampled = 0;
  double elapsed_s = 0, rps = 0, p50_ms = 0, p90_ms = 0, p99_ms = 0;
  std::optional<double> cpu_ms, cpu_us_per_request;
  std::vector<std::string> hollow;  // "PATH: fingerprint X, agreement pass Y"
  nlohmann::json to_json() const;
};

// One load run against `t` over `set`: a generator failure is a RunError naming the server, and
// Ctrl-C ends it at once (throws Interrupted; a stopped run's partial figures are never returned).
load::LoadResult drive(const Target& t, load::LoadOptions l, const load::RequestSet& set);

// One window on one target (warm-up first, outside it). Throws RunError when the load fails.
Window time_window(const Target& t, const std::vector<std::string>& paths, const TimedOptions& o, int round);

struct Timed {
  std::map<std::string, std::vector<Window>> windows;  // target name -> one per round
  std::vector<std::string> hollow;                     // "B round 3: PATH: ..." (empty: all kept their shape)
};
// Rounds until o.rounds, or until a window saw a hollow body (then Timed::hollow says where).
Timed run_timed(const std::vector<Target>& targets, const std::vector<std::string>& paths, const TimedOptions& o);

}  // namespace perfgate::parity
