// A plan through every stage — fixture → runner → measure → stats → gates → store — for every
// scenario, then the run's Holm family, the baseline, and the run's exit code. The results
// file is rewritten after every scenario and at every exit. The plan is the whole input: what
// the user sees at the end (verdict table, exports) is the CLI's (cli/pipeline.hpp).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "plan/plan.hpp"
#include "suite/pg_context.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::suite {

struct RunOutcome {
  int exit_code = 0;
  bool interrupted = false;
  model::ResultsDoc document;          // the finished results
  std::filesystem::path results_path;  // empty: not written to a file
  std::vector<std::string> failures;   // "scenario: why", most severe first in run order
};

// A malformed baseline or script is exit 2 (UsageError) before anything runs or is written;
// --lock is taken after that, before the first scenario.
RunOutcome execute_plan(const plan::RunPlan& plan, const RunSink& sink);

// The same, with the PostgreSQL server of a command that runs many plans (`lies`): one
// throwaway cluster for all of them instead of one started and stopped for each. Each run
// still clones its scenario's database afresh from the template.
RunOutcome execute_plan(const plan::RunPlan& plan, const RunSink& sink, PgContext& pg);

}  // namespace perfgate::suite
