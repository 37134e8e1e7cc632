#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "plan/plan.hpp"

namespace perfgate::cli {

void add_run_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand("run", "Run bundled (or --catalog) scenarios, gate them, write results JSON");
  auto o = std::make_shared<plan::RunOptions>();
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("scenarios", *names, "Scenarios to run (default: all of the catalog)");
  cmd->add_option("--profile", o->profile, "quick (CI-sized) or full (the write-ups' sizes)")->capture_default_str();
  cmd->add_option("--out", o->out_dir, "Write DIR/results.json (default: perfgate-out)");
  cmd->add_option("--catalog", o->catalog_dir, "A folder of scenario folders instead of the bundled catalog");
  cmd->add_option("--scenario-arg", o->scenario_args,
                  "VARIANT=ARG: append ARG to that variant's command (test-only flags of a scenario)");
  add_shared_flags(cmd, *o);
  cmd->callback([o, names, argv] {
    if (o->out_dir.empty() && o->json_path.empty()) o->out_dir = "perfgate-out";
    auto dir = o->catalog_dir.empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(o->catalog_dir);
    auto catalog = catalog::load_catalog(dir);
    auto plan = plan::plan_run(catalog, *names, *o);
    set_exit_code(execute_plan(plan, *o, argv));
  });
}

}  // namespace perfgate::cli
