// perfgate::load — the HTTP/1.1 load generator of service scenarios (and of users).
//
//   auto set = RequestSet::from_url_file(dir + "/urls.txt").hot(50, 0.8);
//   LoadOptions o;  o.port = 8080;  o.connections = 32;  o.duration_s = 5;  o.cpus = {1};
//   LoadResult r = run_load(o, set);         // closed loop: 32 connections, 5 s
//   o.rate_rps = 20000;  r = run_load(o, set);  // open loop: 20,000 requests/s offered
//
// One thread (started by run_load, pinned to opts.cpus) runs an Asio event loop over
// `connections` keep-alive TCP connections; Beast's HTTP/1.1 parser reads the responses
// (status, headers, Content-Length or chunked bodies) without allocating.
//
// Closed loop: every connection sends its next request as soon as the previous response has
// arrived; latency = response complete − request written.
// Open loop (rate_rps > 0): the k-th request's intended send time is start + k / rate_rps,
// whatever the server does; the thread wakes once per tick (LoadOptions::tick_us) to send
// what came due and read what arrived (latency ends at the kernel's receive stamp). A request whose time has come waits
// in a FIFO queue while every connection is busy, and its latency still counts from its intended send time — so a
// stalled server shows up as latency (no coordinated omission). At the end of the schedule the run drains: queued and
// in-flight requests finish or time out (timeout_s after the schedule end).
//
// The k-th request of a run asks for RequestSet::pick(seed, k): the sequence of paths is a
// pure function of (set, seed), independent of timing and of the number of connections.
//
// Responses are recorded from the end of the warm-up (requests sent — closed loop — or
// intended — open loop — before start + warmup_s are not counted, but their bodies are
// digested). Every body is hashed (XXH3-128, hex as perfgate::Digest::hex): the first body of
// each path is kept as that path's digest; a path that later returns a different body is
// listed in `inconsistent_paths`. With LoadOptions::book, every answer is also checked there
// (status and body against the path's first answer: the equivalence gate of services). Errors (refused or reset
// connections, malformed responses) and timeouts (no complete response timeout_s after the request started on its
// connection) close the connection; the next request reconnects (after 10 ms when the connect failed). The load
// thread's own CPU time is reported (client_cpu_s beside client_wall_s): headroom there, with a reference client (wrk)
// reaching the same rate on the same server, is how one knows the generator was not the bottleneck.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "load/response_book.hpp"

namespace perfgate::load {

// What to request: paths (each "/..."), and how the k-th request picks one.
struct RequestSet {
  enum class Mix {
    Uniform,   // every path equally likely
    Weighted,  // path i with probability weights[i] / sum(weights)
    Cycle,     // the k-th request asks for paths[k % n]: every path once per n requests
  };
  std::vector<std::string> paths;
  std::vector<double> weights;  // Weighted only: one non-negative weight per path
  Mix mix = Mix::Uniform;
  std::string label = "uniform";  // for reports: "uniform", "hot(50,0.8)", "zipf(1)", "cycle"

  // One path per line ("/assets/..." or a full "http://host:port/..." URL whose path is
  // kept); an optional weight after whitespace ("/a 3.5") makes the set Weighted. Blank
  // lines and lines starting with '#' are skipped. Throws when the file is unreadable or empty.
  static RequestSet from_url_file(const std::string& file);
  static RequestSet from_paths(std::vector<std::string> paths);
  // A manifest workload: {"urls": "urls.txt", "mix": "uniform"|"hot"|"zipf"|"cycle"|"file",
  // "hot_count": 50, "hot_fraction": 0.8, "zipf_s": 1.0}; "urls" is relative to `dir`.
  // "file" keeps the weights the file gives (uniform when it gives none).
  static RequestSet from_workload(const nlohmann::json& workload, const std::string& dir);

  // Mixes over the same paths (in file order: the first ones are the popular ones).
  RequestSet uniform() const;
  // The first hot_count paths get hot_fraction of the requests (uniformly among them), the
  // rest share what is left uniformly (the write-up's 80/20: hot(50, 0.8)).
  RequestSet hot(std::size_t hot_count, double hot_fraction) const;
  // Zipf over file order: P(path i) proportional to 1 / (i + 1)^s, s >= 0 (0 = uniform).
  RequestSet zipf(double s) const;
  RequestSet cycle() const;

  // The path index of the k-th request of a run seeded with `seed`.
  std::size_t pick(std::uint64_t seed, std::uint64_t k) const;
  // P(path i) under this mix (for tests and reports).
  double probability(std::size_t i) const;

 private:
  std::vector<double> cdf_;  // Weighted: cumulative, normalised to end at 1
  void build();
};

struct LoadOptions {
  std::string host = "127.0.0.1";  // an IPv4 or IPv6 address literal (no name lookup)
  std::uint16_t port = 0;
  int connections = 32;            // keep-alive connections (= concurrency of the closed loop)
  double duration_s = 5.0;         // measured time (after the warm-up), when max_requests == 0
  std::uint64_t max_requests = 0;  // > 0: measure exactly this many requests instead of a duration
  double rate_rps = 0.0;           // 0: closed loop; > 0: open loop at this offered rate
  double timeout_s = 5.0;          // per request, from its start on a connection (a reconnect
                                   // included) to the complete response
  bool accept_gzip = false;        // send "Accept-Encoding: gzip"
  std::vector<int> cpus;           // pin the load thread to these CPUs (empty: inherit)
  std::uint64_t seed = 1;          // the request sequence (RequestSet::pick)
  double warmup_s = 0.0;           // run this long before measuring (responses not counted)
  bool keep_latencies = true;      // keep every latency in LoadResult::latencies_us
  // Open loop: the load thread wakes at most once per tick_us (or at the next intended send
  // time, when later), reads every response that arrived and sends every request that came
  // due. A request sent up to a tick late still counts its latency from its intended time, and
  // a response's arrival is the kernel's receive stamp, not the wake-up that read it. On a VM
  // a wake-up costs ~30 µs of CPU, so waking per request (0) spends the generator's core on
  // sleeping (scenarios/asset_cache/README.md). Connections must cover rate × (tick + response time).
  double tick_us = 500;
  // When set, every answer (warm-up included) is checked in it as it arrives; the caller
  // names the run with book->begin() first. Only touched by the load thread while it runs.
  ResponseBook* book = nullptr;
  // Polled every few tens of ms (the watchdog's tick) and per open-loop tick; when it returns
  // true the run ends at once, answers in flight dropped, and LoadResult::stopped is set. The
  // harness passes its SIGINT/SIGTERM flag, so Ctrl-C does not wait out a 20 s window.
  std::function<bool()> stop;
};

struct LoadResult {
  bool stopped = false;  // LoadOptions::stop ended the run early: the figures are partial
  // The measured window (warm-up excluded).
  std::uint64_t requests = 0;           // requests sent or due: responses + errors + timeouts
  std::uint64_t responses = 0;          // complete responses, any status
  std::uint64_t errors = 0;             // connect failures, resets, malformed responses
  std::uint64_t timeouts = 0;           // no complete response within timeout_s
  std::map<int, std::uint64_t> status;  // status code -> responses
  std::uint64_t body_bytes = 0;         // response bodies, as received (gzip when gzip was sent)
  double elapsed_s = 0;                 // measure start -> last response (or end of the window)
  double rps = 0;                       // responses / elapsed_s
  std::vector<double> latencies_us;     // one per response (µs), in completion order
  // Open loop only: requests that found every connection busy at their intended send time
  // and waited in the queue (their wait is part of their latency), and the deepest queue.
  std::uint64_t queued = 0;
  std::uint64_t max_queue = 0;
  std::uint64_t warmup_responses = 0;
  std::uint64_t connects = 0;  // TCP connections opened (keep-alive: ~ connections)
  // Open loop: how long after its intended send time a measured request went out (µs; inside
  // its latency), and how often the load thread woke (tick_us > 0).
  double send_delay_us_p50 = 0, send_delay_us_p99 = 0, send_delay_us_max = 0;
  std::uint64_t wakeups = 0;
  double client_cpu_s = 0;   // CPU time of the load thread over warm-up + window + drain
  double client_wall_s = 0;  // wall time of the load thread over the same span
  // Every path that answered (warm-up included): XXH3-128 hex of its first body.
  std::map<std::string, std::string> body_digest;
  std::vector<std::string> inconsistent_paths;  // answered more than one distinct body
  std::string label;                            // the RequestSet's label

  // Percentile of latencies_us in ms (perfgate::percentile, type 7); 0 when empty.
  double latency_ms(double p) const;
  // One digest over (path, body digest) in path order: equal sets of paths and bodies give
  // equal digests.
  std::string digest() const;
  // Everything but the latency list: requests, errors, timeouts, status, rps, latency
  // p50/p90/p99/max (ms), queued, client CPU, digest, inconsistent paths and — when
  // with_bodies — the per-path digests.
  nlohmann::json to_json(bool with_bodies = true) const;
};

// Runs the load on a thread of its own (pinned to opts.cpus) and returns when the window
// has been measured and the in-flight requests have finished or timed out. Throws
// std::invalid_argument on bad options (naming the option) and std::runtime_error when
// nothing listens at host:port (a probe connection before the run is refused).
LoadResult run_load(const LoadOptions& opts, const RequestSet& set);

}  // namespace perfgate::load
