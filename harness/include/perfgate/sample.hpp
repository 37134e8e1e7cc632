// The public header scenario programs use to speak the scenario contract
// (docs/scenario-contract.md):
//
//   PROGRAM seed  --profile P --target T            [--params JSON]
//   PROGRAM run   --variant V --profile P --fixture T [--params JSON] [--lie NAME] [scenario flags...]
//   PROGRAM serve --variant V --profile P --fixture T --listen 127.0.0.1:0 [--params JSON] [--lie NAME]
//
// `--lie NAME` runs one of the manifest's declared lies (an AFTER that does less on purpose,
// for `perfgate lies`). scenario_main.hpp builds a whole main from these pieces.
//
// `run` does the work once and prints one JSON object as its last stdout line; `serve`
// prints {"listen": "127.0.0.1:PORT"} once ready and serves until SIGTERM. The harness
// passes the profile's parameters from scenario.json as --params, so sizes live in one place.
#pragma once

// Header-only for real: xxHash's inline mode compiles XXH3 into each translation unit (static,
// renamed XXH_INLINE_*), so a scenario program needs no -lxxhash. Same algorithm, same digests
// (recorded equivalence digests and results depend on them; upload_spool's tests pin a few).
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/better.hpp"
#include "perfgate/endpoint.hpp"  // announce_listen, parse_endpoint
#include "perfgate/percentile.hpp"

namespace perfgate {

using json = nlohmann::json;

// --- invocation -----------------------------------------------------------------------

struct Invocation {
  std::string command;  // seed | run | serve | load
  std::string variant;
  std::string profile = "quick";
  std::string fixture;  // run/serve: where the fixture is (directory or DSN)
  std::string target;   // seed: where to build it
  std::string listen = "127.0.0.1:0";
  json params = json::object();
  std::string lie;                           // --lie NAME: a declared lie of the manifest's `lies` (empty: honest)
  std::map<std::string, std::string> flags;  // any other --name [value]; "" for a bare flag

  bool has(const std::string& flag) const { return flags.count(flag) != 0; }
  bool lying(std::string_view name) const { return lie == name; }
  std::string flag(const std::string& name, const std::string& fallback = "") const {
    auto it = flags.find(name);
    return it == flags.end() ? fallback : it->second;
  }
  // A profile parameter; throws naming the parameter when it is absent.
  template <class T>
  T param(const std::string& name) const {
    if (!params.contains(name))
      throw std::runtime_error("missing profile parameter '" + name + "' (scenario.json profiles." + profile + ")");
    return params.at(name).get<T>();
  }
  template <class T>
  T param(const std::string& name, T fallback) const {
    return params.contains(name) ? params.at(name).get<T>() : fallback;
  }
};

inline Invocation parse_invocation(int argc, char** argv) {
  if (argc < 2)
    throw std::runtime_error(
        "usage: PROGRAM seed|run|serve|load [--variant V] [--profile P] [--fixture T] [--target T]");
  Invocation inv;
  inv.command = argv[1];
  if (inv.command != "seed" && inv.command != "run" && inv.command != "serve" && inv.command != "load")
    throw std::runtime_error("unknown command '" + inv.command + "': expected seed, run, serve or load");
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) throw std::runtime_error("unexpected argument '" + a + "'");
    std::string name = a.substr(2), value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < argc && std::string_view(argv[i + 1]).rfind("--", 0) != 0) {
      value = argv[++i];
    }
    if (name == "variant")
      inv.variant = value;
    else if (name == "profile")
      inv.profile = value;
    else if (name == "fixture")
      inv.fixture = value;
    else if (name == "target")
      inv.target = value;
    else if (name == "listen")
      inv.listen = value;
    else if (name == "params")
      inv.params = json::parse(value.empty() ? "{}" : value);
    else if (name == "lie")
      inv.lie = value;
    else
      inv.flags[name] = value;
  }
  if (inv.command != "seed" && inv.variant.empty()) throw std::runtime_error(inv.command + " needs --variant");
  if ((inv.command == "seed" || inv.command == "load") && inv.target.empty())
    throw std::runtime_error(inv.command + " needs --target");
  return inv;
}

// --- digests ------------------------------------------------------------------------

// Streaming XXH3-128 digest of the work a variant did (rows, bytes, responses). Equal
// digests across variants are the equivalence gate.
class Digest {
 public:
  Digest() : state_(XXH3_createState()) { XXH3_128bits_reset(state_); }
  ~Digest() { XXH3_freeState(state_); }
  Digest(const Digest&) = delete;
  Digest& operator=(const Digest&) = delete;

  void update(const void* data, std::size_t n) { XXH3_128bits_update(state_, data, n); }
  void update(std::string_view s) { update(s.data(), s.size()); }
  // Length-prefixed, so ("ab","c") and ("a","bc") differ.
  void field(std::string_view s) {
    const std::uint64_t n = s.size();
    update(&n, sizeof n);
    update(s);
  }
  std::string hex() const {
    const XXH128_hash_t h = XXH3_128bits_digest(state_);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return buf;
  }

 private:
  XXH3_state_t* state_;
};

inline std::string digest_of(std::string_view s) {
  Digest d;
  d.update(s);
  return d.hex();
}

// --- output log -----------------------------------------------------------------------

// The rows a variant produced, one per line, to the file the harness names in
// $PERFGATE_OUTPUT (when set). On an equivalence failure the harness diffs these files and
// names the first differing line. Every line also feeds the digest.
class OutputLog {
 public:
  explicit OutputLog(Digest& digest) : digest_(digest) {
    if (const char* path = std::getenv("PERFGATE_OUTPUT"); path && *path) file_.open(path, std::ios::trunc);
  }
  void line(std::string_view s) {
    digest_.field(s);
    if (file_.is_open()) file_ << s << '\n';
  }

 private:
  Digest& digest_;
  std::ofstream file_;
};

// --- the sample report ----------------------------------------------------------------

// Exact: a count of the work (calls, rows, bytes, requests) that the same work gives on any CPU
// with this core count; a baseline then compares it on every host class. Times are not.
enum class Exact { No, Yes };

class Report {
 public:
  // One figure of this sample, measured inside the program.
  Report& metric(const std::string& name, double value, const std::string& unit, Better better = Better::Lower,
                 Exact exact = Exact::No) {
    metrics_[name] = {{"value", value}, {"unit", unit}, {"better", std::string(name_of(better))}};
    if (exact == Exact::Yes) metrics_[name]["exact"] = true;
    return *this;
  }
  // A count of the work itself, declared exact.
  Report& count(const std::string& name, double value, const std::string& unit = "count",
                Better better = Better::Lower) {
    return metric(name, value, unit, better, Exact::Yes);
  }
  // Raw observations behind a metric (per-page latencies, per-request times...).
  Report& series(const std::string& name, const std::vector<double>& values, const std::string& unit) {
    series_[name] = {{"unit", unit}, {"values", values}};
    return *this;
  }
  // Anything else worth keeping in the results (EXPLAIN output, counts, notes).
  Report& extra(const std::string& name, json value) {
    extra_[name] = std::move(value);
    return *this;
  }
  Report& digest(std::string hex) {
    digest_ = std::move(hex);
    return *this;
  }
  // The program saw a wrong or divergent answer: the harness exits 3 with `reason`. Only the
  // first reason is kept (the first occurrence is the one worth reading).
  Report& not_equivalent(const std::string& reason) {
    if (equivalent_) reason_ = reason;
    equivalent_ = false;
    return *this;
  }
  bool equivalent() const { return equivalent_; }
  json to_json() const {
    json j = {{"digest", digest_}, {"metrics", metrics_}};
    if (!equivalent_) {
      j["equivalent"] = false;
      j["equivalence_reason"] = reason_;
    }
    if (!series_.empty()) j["series"] = series_;
    if (!extra_.empty()) j["extra"] = extra_;
    return j;
  }
  // The contract's last stdout line.
  void print() const { std::cout << to_json().dump() << std::endl; }

 private:
  std::string digest_;
  bool equivalent_ = true;
  std::string reason_;
  json metrics_ = json::object();
  json series_ = json::object();
  json extra_ = json::object();
};

// --- helpers ----------------------------------------------------------------------------

class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

// Runs a scenario program's main; any exception becomes a message on stderr and exit 1.
template <class F>
int main_guard(const char* program, F&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace perfgate
