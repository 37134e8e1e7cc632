// How a sample of `perfgate ab` runs, beyond the scenario contract: where its stdout goes
// (hyperfine's --output), what it reads (--input), which exit codes are not failures
// (--ignore-failure), and the unmeasured commands around its runs (--prepare, --conclude,
// --setup, --cleanup). Scenario variants keep the defaults: the contract's stdout file.
//
// A sample costs what the program costs where its output would go without perfgate: with
// --output null (the default, as hyperfine's) or inherit, the timed run cannot be hashed, so
// the outputs are compared in *digest runs*: one more run of both sides, stdout to a file,
// untimed, at the first measured round, the last, and a seeded eighth of the others. A program
// that skips work when its stdout is /dev/null is timed doing that less: --output pipe times it
// writing into a pipe that perfgate drains and hashes on a CPU outside the sample's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "catalog/command_sampling.hpp"

namespace perfgate::run {

namespace fs = std::filesystem;

// The runner's names for catalog/command_sampling.hpp's values.
using StdoutTarget = catalog::StdoutTarget;
using AbSampling = catalog::CommandSampling;

// Outputs are compared at the first round of all (the warm-up's runs themselves when their output
// would go to /dev/null), the last measured round, and each other measured one with this
// probability, drawn from the seed and the round (so the same seed digests the same rounds) —
// at most one such round per eight measured (`seeded_so_far` of them before `measured_round`):
// a digest round costs a round, and a run of seconds-long commands that decides at round 8
// would otherwise spend a fifth more on them than on its timed rounds.
inline constexpr double kDigestShare = 0.125;
bool digest_round(std::uint64_t seed, int measured_round, int seeded_so_far);

// A pipe for a sample's stdout, drained on a thread of ours pinned off the sample's CPUs: what
// it reads is hashed and kept in `keep` (for the first differing line of a mismatch). The
// program pays for writing into a pipe, not into the page cache.
class DrainedPipe {
 public:
  DrainedPipe(const fs::path& keep, const std::vector<int>& sample_cpus);
  ~DrainedPipe();
  DrainedPipe(const DrainedPipe&) = delete;
  DrainedPipe& operator=(const DrainedPipe&) = delete;
  int write_fd() const { return write_fd_; }
  // Once the child holds the write end: ours closes, so the drain ends when the child's does.
  void close_write();
  // Waits for the end of the output; its digest (XXH3-128, as Digest's hex).
  std::string finish();

 private:
  int write_fd_ = -1, read_fd_ = -1;
  std::thread drain_;
  std::string digest_, error_;
};

// The digest of a file's bytes (Digest's hex), as the contract's stdout file is hashed.
std::string digest_of_file(const fs::path& path);

// Runs an unmeasured shell command of the user's (`what` names the flag, e.g. "--prepare") in
// `workdir` with stdout on /dev/null, in a cgroup of its own whose leftovers are killed.
// Throws RunError with its stderr when it fails.
void run_user_command(const std::string& what, const std::string& command, const fs::path& workdir,
                      const fs::path& scratch, double timeout_s);

nlohmann::json to_json(const AbSampling& sampling);

}  // namespace perfgate::run
