// What a user asked for on the command line, before it is resolved against manifests.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/kinds.hpp"

namespace perfgate::plan {

struct RunOptions {
  std::string profile = "quick";
  std::optional<int> min_rounds, max_rounds, warmup;
  std::optional<double> max_time_s, timeout_s;
  std::optional<catalog::Policy> policy;
  double noise = 0.02;  // the noise band, as a fraction (--noise takes a percentage)
  double alpha = 0.05;
  std::optional<std::uint64_t> seed;
  std::optional<std::vector<int>> cpus;
  std::string out_dir;      // run: DIR/results.json
  std::string json_path;    // explicit results file (wins over out_dir)
  std::string catalog_dir;  // empty: the bundled catalog
  bool quiet = false;
  std::vector<std::string> scenario_args;  // VARIANT=ARG, appended to that variant's command (tests)

  // Against baseline.json (docs/baseline.md): empty = the default one; "none" = not compared.
  std::string baseline_path;
  bool baseline_given = false;       // --baseline was on the command line
  double baseline_tolerance = 0.05;  // a fraction (--baseline-tolerance takes a percentage)
  // CI outputs: JUnit XML and Google Benchmark JSON of the results (empty: none).
  std::string junit_path, gbench_path;
  // --shard i/n: run the i-th of n deterministic parts of the selected scenarios.
  std::string shard;
  // --against DIR: this build's AFTER against the AFTER of another build of perfgate.
  std::string against_dir;
  // ab --duet: BEFORE and AFTER of a round run at the same time on two CPUs.
  bool duet = false;
  // ab: the folder samples run in (empty: the caller's); --isolate: a fresh one per sample.
  std::string workdir;
  bool isolate = false;
  // --debug-samples FILE (hidden): samples from a script, not from programs (run/sample_script.hpp).
  std::string debug_samples;
};

// "0,1" or "0-3,6" → CPU numbers. Throws UsageError.
std::vector<int> parse_cpu_list(const std::string& text);

}  // namespace perfgate::plan
