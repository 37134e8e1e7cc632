// `perfgate batch PLAN.json --lock FILE --prebuilt DIR`: the perf VM's queue entry. Takes the
// machine's lock (waits, says who holds it, times out), compiles nothing (every program must
// already be in the prebuilt tree), runs the plan's scenarios and profiles in order, and writes
// one results file with the load average around the whole batch. docs/batch.md.
#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "common/errors.hpp"
#include "common/run_lock.hpp"
#include "measure/host.hpp"
#include "plan/against.hpp"
#include "plan/batch_file.hpp"
#include "plan/plan.hpp"

namespace perfgate::cli {

void add_batch_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "batch", "Run a batch plan of prebuilt scenarios under the perf VM's lock, one batch at a time");
  auto o = std::make_shared<plan::RunOptions>();
  auto plan_file = std::make_shared<std::string>();
  auto lock = std::make_shared<std::string>();
  auto prebuilt = std::make_shared<std::string>();
  auto timeout = std::make_shared<double>(3600);
  cmd->add_option("plan", *plan_file, "PLAN.json: steps of {profile, scenarios} (docs/batch.md)")->required();
  cmd->add_option("--lock", *lock, "The lock file every batch on this machine shares")->required();
  cmd->add_option("--prebuilt", *prebuilt,
                  "A built perfgate tree (or install prefix) whose share/perfgate/scenarios holds the programs")
      ->required();
  cmd->add_option("--lock-timeout", *timeout, "Seconds to wait for the lock (default 3600)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", o->out_dir, "Write DIR/results.json (default: perfgate-out)");
  add_shared_flags(cmd, *o);
  cmd->callback([=] {
    // Everything that can be wrong with the input is found before the lock is taken.
    auto bf = plan::load_batch_file(*plan_file);
    if (o->out_dir.empty() && o->json_path.empty()) o->out_dir = "perfgate-out";
    const auto catalog_dir = plan::other_build_catalog(*prebuilt, "--prebuilt");
    auto catalog = catalog::load_catalog(catalog_dir);
    plan::apply_batch_defaults(*o, bf);
    if (!o->seed) o->seed = plan::plan_nothing(*o).seed;  // one seed for every step
    plan::RunPlan combined;
    for (const auto& step : bf.steps) {
      plan::RunOptions so = *o;
      so.profile = step.profile;
      plan::RunPlan part;
      try {
        part = plan::plan_run(catalog, step.scenarios, so);
      } catch (const UsageError& e) {
        const std::string what = e.what();
        if (what.find("program") != std::string::npos)
          throw UsageError(what + " — perfgate batch never compiles: build " + *prebuilt +
                           " before queueing the batch");
        throw UsageError(bf.file.string() + ": " + what);
      }
      for (auto& s : part.scenarios) combined.scenarios.push_back(std::move(s));
    }
    plan::finish_plan(combined, *o);

    std::string scenarios;
    for (const auto& s : combined.scenarios)
      scenarios += (scenarios.empty() ? "" : " ") + s.manifest.name + "/" + s.profile;
    RunLock held(*lock, *timeout, "perfgate batch " + *plan_file + " [" + scenarios + "]", std::cerr);
    const auto load_before = measure::load_average();
    nlohmann::json extra = {{"batch",
                             {{"plan", std::filesystem::absolute(*plan_file).string()},
                              {"steps", bf.steps.size()},
                              {"prebuilt", std::filesystem::absolute(*prebuilt).string()},
                              {"catalog", std::filesystem::absolute(catalog_dir).string()},
                              {"lock",
                               {{"file", std::filesystem::absolute(*lock).string()},
                                {"waited_s", held.waited_s()},
                                {"waited_for", held.waited_for()},
                                {"acquired_unix", held.acquired_unix()}}},
                              {"load_before", load_before}}}};
    const int code = execute_plan(combined, *o, argv, extra);
    const auto load_after = measure::load_average();
    std::cerr << "perfgate: batch: 1-minute load average " << load_before[0] << " before, " << load_after[0]
              << " after (host.load_before / host.load_after in the results)\n";
    set_exit_code(code);
  });
}

}  // namespace perfgate::cli
