// `perfgate parity`: two HTTP servers — given as base URLs, or as programs perfgate starts —
// compared on the same work. The agreement pass decides which requests both answer alike
// (agreement.hpp); only those are timed (timed.hpp), each server's capacity is measured
// (capacity.hpp), and the run's document and markdown section are written to the out folder.
// Exit codes: 0 compared; 2 bad input; 3 refused (too much dropped, nothing compared, not
// doing the work, a body gone hollow while timed); 4 a server could not be reached or started.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parity/capacity.hpp"
#include "parity/timed.hpp"

namespace perfgate::parity {

struct Side {
  std::string url;                 // a running server …
  std::vector<std::string> serve;  // … or the program to start ("{port}" is replaced by a free port)
  std::vector<int> cpus;           // served only: its CPUs
};

struct ParityOptions {
  Side a, b;
  std::string requests;
  std::vector<std::string> volatile_keys;
  double max_dropped = 0.10;
  std::string noise = "auto";  // instance (a second server of each program) | answer (a second answer) | auto
  std::filesystem::path out;   // where `perfgate parity` writes parity.json and parity.md (cli/cmd_parity.cpp)
  TimedOptions timed;
  CapacityOptions capacity;
  bool measure_capacity = true;
  double ready_timeout_s = 30;
};

struct ParityResult {
  nlohmann::json doc;
  int exit_code = 0;
  std::string message;  // why it was refused or could not run; empty when compared
};

// Throws UsageError (2) on bad options or a bad request set and RunError (4) when a server
// cannot be started or reached; a refusal is a result (exit_code 3), with its document.
ParityResult run_parity(const ParityOptions& o);

// The paired comparison of B against A over the timed windows, on the metric both have.
nlohmann::json compare_windows(const Timed& t, std::uint64_t seed);

}  // namespace perfgate::parity
