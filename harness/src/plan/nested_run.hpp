// A run made inside another command — a bisect step, one layout's pair, a lie, one of
// calibrate's pairs — asked for in one typed request instead of options filled by hand: it is
// quiet, never compared with a baseline, writes its results to one file (or none) and is seeded
// apart from its siblings. Whatever the request leaves out stays as the user asked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run_sections.hpp"
#include "plan/options.hpp"

namespace perfgate::plan {

struct NestedRun {
  std::optional<int> rounds = {};      // a fixed number of rounds (no time budget); none: as asked
  std::optional<int> max_rounds = {};  // a bound on the rounds; none: as asked
  std::optional<int> warmup = {};      // none: as asked
  // Added to the user's seed (1 when none was given), so the n-th sibling's rounds differ;
  // none: the seed as asked (a random one when none was).
  std::optional<std::uint64_t> seed_offset = {};
  std::string results_file = {};                          // empty: no results file
  std::string debug_samples = {};                         // this run's script (tests); empty: the one asked for, if any
  std::optional<catalog::Policy> policy = {};             // none: as asked
  std::optional<double> noise = {}, alpha = {};           // the band and the level it is decided at; none: as asked
  std::optional<CannotTellExit> cannot_tell = {};         // what its exit says when it cannot tell; none: as asked
  std::optional<bool> duet = {};                          // `ab --duet` rounds; none: as asked
  std::optional<std::vector<std::string>> measures = {};  // its counting samples; none: as asked
  std::vector<std::string> argv = {};                     // the command line its results record; empty: as asked
  std::optional<std::vector<std::string>> lie_args = {};  // `perfgate lies`: the lie given to AFTER
  std::optional<model::BisectStep> bisect_step = {};      // `perfgate bisect`: the step this run is
  std::string against_dir = {};  // `run --against DIR`: the other build BEFORE comes from; empty: as asked
  bool parity_measures = true;   // false: a parity scenario's measures after the rounds are left out (`lies`)
};

// `asked` as the nested run `n` needs it.
RunOptions nested_options(const RunOptions& asked, const NestedRun& n);

}  // namespace perfgate::plan
