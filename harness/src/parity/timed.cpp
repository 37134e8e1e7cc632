#include "parity/timed.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "parity/fingerprint.hpp"
#include "parity/served_server.hpp"

namespace perfgate::parity {

nlohmann::json Window::to_json() const {
  nlohmann::json j = {{"responses", responses},
                      {"errors", errors},
                      {"rps", rps},
                      {"elapsed_s", elapsed_s},
                      {"p50_ms", p50_ms},
                      {"p90_ms", p90_ms},
                      {"p99_ms", p99_ms},
                      {"sampled", sampled},
                      {"bytes_per_response", responses ? static_cast<double>(body_bytes) / responses : 0.0}};
  if (cpu_ms) j["cpu_ms"] = *cpu_ms;
  if (cpu_us_per_request) j["cpu_us_per_request"] = *cpu_us_per_request;
  if (!hollow.empty()) j["hollow"] = hollow;
  return j;
}

namespace {

load::LoadOptions load_options(const Target& t, const TimedOptions& o, int round) {
  load::LoadOptions l;
  l.host = t.url.address;
  l.port = t.url.port;
  l.connections = o.connections;
  l.cpus = o.load_cpus;
  l.seed = o.seed + static_cast<std::uint64_t>(round);
  l.timeout_s = 10;
  return l;
}

// Fetches `n` of the agreeing requests, spread over the window, and checks each body's shape.
void sample_shapes(const Target& t, const std::vector<std::string>& paths, int n, double window_s, int round,
                   const std::atomic<bool>& done, Window& w) {
  Client c(t.url, 10);
  const auto gap = std::chrono::duration<double>(window_s / (n + 1));
  for (int i = 0; i < n && !done; ++i) {
    // In short steps, so a window that ends early (Ctrl-C) does not wait out a long gap.
    for (auto until = std::chrono::steady_clock::now() + gap; !done && std::chrono::steady_clock::now() < until;)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (done) break;
    const std::string& p = paths[(static_cast<std::size_t>(round) * static_cast<std::size_t>(n) + i) % paths.size()];
    Answer a = c.get(p);
    ++w.sampled;
    auto want = t.shapes.find(p);
    if (a.status == 0 || want == t.shapes.end()) continue;
    if (auto got = fingerprint(a.body); got != want->second)
      w.hollow.push_back(p + ": key-path fingerprint " + got + ", " + want->second + " in the agreement pass (" +
                         std::to_string(a.body.size()) + " bytes now)");
  }
}

}  // namespace

load::LoadResult drive(const Target& t, load::LoadOptions l, const load::RequestSet& set) {
  check_interrupted();
  l.stop = [] { return interrupted(); };
  load::LoadResult r;
  try {
    r = load::run_load(l, set);
  } catch (const std::exception& e) {
    throw RunError("server " + t.name + " (" + t.url.text + "): the load generator failed: " + e.what());
  }
  check_interrupted();
  return r;
}

Window time_window(const Target& t, const std::vector<std::string>& paths, const TimedOptions& o, int round) {
  std::vector<std::string> full;
  for (const auto& p : paths) full.push_back(t.url.prefix + p);
  const load::RequestSet prefixed = load::RequestSet::from_paths(std::move(full)).cycle();
  load::LoadOptions l = load_options(t, o, round);
  auto load = [&](double seconds) {
    l.duration_s = seconds;
    return drive(t, l, prefixed);
  };
  if (o.warmup_s > 0) load(o.warmup_s);  // outside the window: caches fill, nothing is counted
  check_interrupted();
  Window w;
  std::atomic<bool> done{false};
  const auto cpu0 = t.server ? t.server->cpu() : std::nullopt;
  std::thread sampler([&] { sample_shapes(t, paths, o.fingerprint_samples, o.window_s, round, done, w); });
  load::LoadResult r;
  try {
    r = load(o.window_s);
  } catch (...) {
    done = true;
    sampler.join();
    throw;
  }
  done = true;
  sampler.join();
  const auto cpu1 = t.server ? t.server->cpu() : std::nullopt;
  w.responses = r.responses;
  w.errors = r.errors + r.timeouts;
  w.body_bytes = r.body_bytes;
  w.elapsed_s = r.elapsed_s;
  w.rps = r.rps;
  w.p50_ms = r.latency_ms(0.5);
  w.p90_ms = r.latency_ms(0.9);
  w.p99_ms = r.latency_ms(0.99);
  if (cpu0 && cpu1) {
    w.cpu_ms = static_cast<double>(cpu1->usage_usec - cpu0->usage_usec) / 1e3;
    // The sampler's answers were served inside the window too.
    const auto served = w.responses + w.sampled;
    if (served) w.cpu_us_per_request = *w.cpu_ms * 1e3 / static_cast<double>(served);
  }
  return w;
}

Timed run_timed(const std::vector<Target>& targets, const std::vector<std::string>& paths, const TimedOptions& o) {
  Timed out;
  std::mt19937_64 rng(o.seed);
  std::vector<std::size_t> order(targets.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (int round = 1; round <= o.rounds && out.hollow.empty(); ++round) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) {
      Window w = time_window(targets[i], paths, o, round);
      for (const auto& h : w.hollow)
        out.hollow.push_back(targets[i].name + " round " + std::to_string(round) + ": " + h);
      out.windows[targets[i].name].push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace perfgate::parity
