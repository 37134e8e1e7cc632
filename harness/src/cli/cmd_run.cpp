#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "plan/plan.hpp"
#include "suite/benchmark_lister.hpp"
#include "suite/pipeline.hpp"

namespace perfgate::cli {

void add_run_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand("run", "Run bundled (or --catalog) scenarios, gate them, write results JSON");
  auto o = std::make_shared<plan::RunOptions>();
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("scenarios", *names, "Scenarios to run (default: all of the catalog)");
  flags::profile(cmd, o->profile);
  flags::catalog(cmd, o->catalog_dir);
  cmd->add_option("--scenario-arg", o->scenario_args,
                  "VARIANT=ARG: append ARG to that variant's command (test-only flags of a scenario)");
  cmd->add_option("--shard", o->shard,
                  "i/n: run the i-th of n deterministic parts of the selected scenarios (CI job matrix; "
                  "join them with perfgate merge)");
  cmd->add_option("--against", o->against_dir,
                  "DIR: another built perfgate (a worktree of another branch): its AFTER as BEFORE, this build's "
                  "AFTER as AFTER");
  flags::measure(cmd, o->measures);
  flags::lock(cmd, *o);
  add_run_flags(cmd, *o);
  flags::debug_samples(cmd, o->debug_samples);
  cmd->callback([o, names, argv] {
    o->argv = argv;
    const auto dir = o->catalog_dir.empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(o->catalog_dir);
    const auto plan = plan::plan_run(catalog::load_catalog(dir), *names, *o, suite::benchmark_lister());
    set_exit_code(suite::run_and_show(plan).exit_code);
  });
}

}  // namespace perfgate::cli
