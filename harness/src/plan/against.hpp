// --against DIR: branch comparison. For each planned scenario, the other build's AFTER (its
// program, its `after` arguments) becomes the BEFORE-side variant `before`, labelled "other
// build's after", and this build's AFTER stays `after`: same fixture (seeded by this build),
// same params, paired and interleaved in rounds like any BEFORE/AFTER. Sweep variants and
// claims are dropped (they are about this build's BEFORE); the policy is no-regress unless
// --policy says otherwise. A gbench scenario becomes a pair of binaries (plan/gbench_plan.hpp):
// the other build's and this build's, compared by the X/after benchmarks both list.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "model/run_sections.hpp"
#include "plan/plan.hpp"

namespace perfgate::plan {

// The other build's catalog: DIR/share/perfgate/scenarios, DIR/build/share/perfgate/scenarios,
// or DIR itself when it holds scenario folders. Throws UsageError naming `flag` (--against,
// --prebuilt) when none is there.
std::filesystem::path other_build_catalog(const std::filesystem::path& dir, const std::string& flag = "--against");

// Planning's step for --against (plan_run calls it): rewrites `plan`'s scenarios for the
// comparison; scenarios that cannot be compared (service scenarios, a scenario the other build
// does not have) are removed with a line in `notes`; a gbench pair's benchmarks are listed by
// `list`. Returns what the results record under run.against.
model::AgainstBuild apply_against(RunPlan& plan, const RunOptions& options, std::vector<std::string>& notes,
                                  const BenchmarkLister& list);

}  // namespace perfgate::plan
