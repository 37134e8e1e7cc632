// Scripted samples (`run` / `ab --debug-samples FILE`, hidden from --help): each sample's
// metrics, digest and exit status come from a small JSON file instead of a child process, so
// tests of what perfgate decides — the stopping rule, Holm, the gates, exit codes, the verdict
// table — get exact inputs instead of this machine's timing. The suite plugs it into
// BatchHooks::take_sample; every metric's source is "scripted", so such a results file can never
// pass for a measurement (baseline update and history add refuse it).
//
// The file (also in docs/architecture.md, "Testing"):
//   {"before": VARIANT, "after": VARIANT, ...}              the script of every scenario of the run
//   {"scenarios": {"NAME": {"before": VARIANT, ...}, ...}}  one per scenario the run plans
// VARIANT is an object: {"METRIC": VALUES, ..., "digest": DIGEST, "exit_code": CODES}
//   VALUES  a number (every round); a list (measured rounds 1, 2, ...; cycled when the run is
//           longer); or {"median": M, "spread": S, "seed": K}: M·(1 + S·u), u uniform in [-1, 1)
//           from splitmix64 of (K, round), so a round's value does not depend on how many rounds
//           ran before it. K defaults to a hash of "scenario/variant/metric": two variants given
//           the same median and spread are an A/A pair, not identical twins. Values are >= 0.
//   DIGEST  the output digest each sample reports: a string or a list (cycled); default
//           "scripted". A differing one scripts an AFTER that does other work (exit 3).
//   CODES   the exit status of each sample: an integer or a list (cycled); default 0. A non-zero
//           one is a sample that could not run (exit 4), as a crashing program's is.
// Warm-up samples report what measured round 1 reports.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "run/sample.hpp"

namespace perfgate::run {

class SampleScript {
 public:
  // Throws UsageError "FILE: FIELD: why" on anything malformed, before a sample is taken.
  static SampleScript load(const fs::path& file);

  const fs::path& file() const { return file_; }
  // Empty when the file scripts this variant of this scenario; otherwise the field it lacks.
  std::string lacks(const std::string& scenario, const std::string& variant) const;
  // The sample of `variant` in batch round `round` (warm-up rounds first, as run_batch counts
  // them). Throws RunError for a scripted non-zero exit status.
  Sample take(const std::string& scenario, const std::string& variant, int round, int warmup_rounds, int order) const;

  struct Values {
    std::vector<double> list;  // empty: generated
    double median = 0, spread = 0;
    std::optional<std::uint64_t> seed;  // unset: a hash of scenario/variant/metric
    double at(int measured_round, std::uint64_t default_seed) const;
  };
  struct Variant {
    std::map<std::string, Values> metrics;
    std::vector<std::string> digests{"scripted"};
    std::vector<int> exit_codes{0};
  };

 private:
  const Variant& variant_of(const std::string& scenario, const std::string& variant) const;
  fs::path file_;
  bool per_scenario_ = false;
  // scenario → variant → script; the key "" holds the script of every scenario when the file
  // names none.
  std::map<std::string, std::map<std::string, Variant>> scenarios_;
};

}  // namespace perfgate::run
