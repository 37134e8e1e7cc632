// `perfgate parity URL_A URL_B --requests FILE` as typed: either side may instead be a program
// perfgate starts (--serve-a "PROGRAM ARGS", "{port}" replaced by a free port), pinned to its own
// CPUs, which adds CPU per request from its cgroup. This turns the command's words into
// ParityOptions, runs them (parity_run.hpp), writes DIR/parity.json and DIR/parity.md and says
// what they hold.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/defaults.hpp"
#include "parity/parity_run.hpp"

namespace perfgate::parity {

struct ParityCommand {
  std::vector<std::string> urls;
  std::string serve_a, serve_b, cpus_a, cpus_b, load_cpus, out = std::string(defaults::kOutDir) + "/parity";
  std::optional<std::uint64_t> seed;
  int max_concurrency = 128;
  ParityOptions o;
};

// Fills `c.o` from the words: the servers to start, the URLs of the others, each side's CPUs (by
// default the load generator on the first allowed CPU, both servers on the rest). Throws
// UsageError on URLs that do not match the servers, or bad window lengths.
void resolve(ParityCommand& c);

// Runs the resolved comparison, writes `json_file` and parity.md beside it (unwritten: exit 4)
// and returns the exit code.
int run_parity_command(const ParityOptions& o, const std::filesystem::path& json_file, std::ostream& out);

}  // namespace perfgate::parity
