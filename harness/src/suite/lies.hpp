// `perfgate lies`: mutation testing for the equivalence gates. Every lie a manifest declares
// (catalog::Lie: an AFTER that does less on purpose) runs as `after`, with its args appended,
// against BEFORE at a small profile, through the same suite as `perfgate run` (fixtures,
// PostgreSQL cluster, gates). A lie passes the check only when it is caught as declared:
//   - "equivalence": the run exits 3 (digest, response gate, or the program's own
//     "equivalent": false);
//   - "exact:<metric>": the run passes equivalence (the lie changes no output), honest AFTER's
//     <metric> is the same in every round, and the lie's differs from it in every round.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"
#include "plan/options.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::suite {

struct LieCheck {
  std::string scenario, lie, what, caught_by;
  bool caught = false;
  bool could_not_run = false;  // a run exited 2 or 4: nothing was decided
  int exit_code = 0;           // of the lie's run (3: an equivalence gate failed)
  std::string how;             // how it was caught, or why it was not
};

struct LiesOptions {
  std::string profile = "quick";
  int rounds = 2;  // equivalence shows in the first samples; two rounds prove a count is exact
  int repeat = 1;  // runs of each lie: caught only when caught in every one (a lie must not need luck)
  std::optional<std::uint64_t> seed;
  std::optional<std::vector<int>> cpus;
};

// The lies of `names` (every scenario of the catalog when empty). A scenario without lies is
// a failing row: every scenario must declare its lies. Throws UsageError for an unknown name.
std::vector<LieCheck> check_lies(const std::vector<catalog::Manifest>& catalog, const std::vector<std::string>& names,
                                 const LiesOptions& options, const std::vector<std::string>& argv,
                                 const RunSink& status);

// The exit code of `perfgate lies`: 0 when every lie was caught as declared, 4 when a run
// could not be made, else 1 (a gate let a lie through).
int lies_exit_code(const std::vector<LieCheck>& checks);

nlohmann::json to_json(const LieCheck& c);

}  // namespace perfgate::suite
