// `perfgate batch PLAN.json --lock FILE --prebuilt DIR`: the perf VM's queue entry. Takes the
// machine's lock (waits, says who holds it, times out), compiles nothing (every program must
// already be in the prebuilt tree), runs the plan's scenarios and profiles in order, and writes
// one results file with the load average around the whole batch. docs/batch.md.
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "plan/batch_file.hpp"
#include "suite/pipeline.hpp"

namespace perfgate::cli {

void add_batch_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "batch", "Run a batch plan of prebuilt scenarios under the perf VM's lock, one batch at a time");
  auto o = std::make_shared<plan::RunOptions>();
  auto plan_file = std::make_shared<std::string>();
  auto prebuilt = std::make_shared<std::string>();
  cmd->add_option("plan", *plan_file, "PLAN.json: steps of {profile, scenarios} (docs/batch.md)")->required();
  cmd->add_option("--prebuilt", *prebuilt,
                  "A built perfgate tree (or install prefix) whose share/perfgate/scenarios holds the programs")
      ->required();
  flags::lock(cmd, *o);
  cmd->get_option("--lock")->required();
  add_run_flags(cmd, *o);
  cmd->callback([=] {
    o->argv = argv;
    // Everything that can be wrong with the input is found before the lock is taken.
    set_exit_code(suite::run_and_show(plan::plan_batch(plan::load_batch_file(*plan_file), *prebuilt, *o)).exit_code);
  });
}

}  // namespace perfgate::cli
