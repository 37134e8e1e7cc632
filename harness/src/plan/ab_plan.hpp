// `perfgate ab`: the user's own commands as paired scenarios of kind "ab". One pair is one
// scenario; a family (a parameter scan, several commands against one reference) is one
// scenario per pair, gated together: one Holm family.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::plan {

struct AbPair {
  std::string name;  // the scenario's name: "ab", or "ab[threads=4]" in a family
  std::vector<std::string> before_argv, after_argv;
  json params = json::object();  // a parameter family's values for this pair
  AbSideOptions before, after;   // hyperfine's options of each command
  // The folder each command runs in when not the run's (--workdir, the caller's): a bisect
  // step's two builds, each in its own tree.
  std::optional<std::string> before_workdir, after_workdir;
};

// The folder ab's samples run in: --workdir DIR (absolute), else the caller's; empty with
// --isolate (a fresh folder per sample). Throws UsageError when DIR is not a folder.
std::string ab_workdir(const RunOptions& options);

// ab's time-budgeted rounds unless --max-rounds is given: looks growing by a fifth while they
// fit the budget, --max-time or 50 s, each at the level the spending boundary gives it
// (stats::BudgetedLooks). The first look (unless --min-rounds) is the first where a rank test can
// reject inside a Holm family of `family` gated comparisons at the least a first look spends:
// stats::kBudgetedFirstLook for one. Also `perfgate gbench`'s.
void apply_budgeted_rounds(ScenarioPlan& s, const RunOptions& options, int family);

RunPlan plan_ab(const std::string& name, const std::vector<std::string>& before_argv,
                const std::vector<std::string>& after_argv, const std::string& metric, const RunOptions& options);
// Every pair one scenario of kind ab, gated together (one Holm family). `metric` auto: a count
// the options measure (instructions, then allocs), else chosen after the rounds from what both
// sides measured. Throws UsageError for a command that cannot run, before anything runs.
RunPlan plan_ab_family(const std::vector<AbPair>& pairs, const std::string& metric, const RunOptions& options);

}  // namespace perfgate::plan
