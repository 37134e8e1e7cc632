// The results' `run` header (docs/results-schema.md): who ran what, from which commit, how to
// re-run it; and each scenario's own reproduce command.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "plan/plan.hpp"

namespace perfgate::suite {

// The command line as run, with --seed SEED appended when it was not given, so that
// re-running it draws the same orders and resamples.
std::vector<std::string> reproduce_argv(const std::vector<std::string>& argv, std::uint64_t seed);

// The run's command narrowed to one scenario: other scenario names dropped, this one kept
// (added after `run` when the command named none). `perfgate ab` commands are kept whole.
std::string scenario_reproduce(const std::vector<std::string>& argv, const plan::ScenarioPlan& sp);

// The folder whose git repository the run measures, so its commit is the one recorded: a
// --catalog run's catalog, ab's working folder, perfgate's own source tree for the bundled
// catalog (a folder outside any repository records "unknown").
std::filesystem::path subject_dir(const plan::RunPlan& rp);

// id, started_at, command_line, reproduce, perfgate's version and commit, the subject's git,
// the catalog, profile, seed, options, the plan's record sections (shard, against, batch,
// bisect, lies) and stop_reason "running". The caller adds the baseline.
model::RunHeader run_header(const plan::RunPlan& rp);

}  // namespace perfgate::suite
