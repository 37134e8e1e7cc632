#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "common/errors.hpp"
#include "plan/against.hpp"
#include "plan/plan.hpp"
#include "plan/shard.hpp"

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
  cmd->add_option("--shard", o->shard,
                  "i/n: run the i-th of n deterministic parts of the selected scenarios (CI job matrix; "
                  "join them with perfgate merge)");
  cmd->add_option("--against", o->against_dir,
                  "DIR: another built perfgate (a worktree of another branch): its AFTER as BEFORE, this build's "
                  "AFTER as AFTER");
  add_shared_flags(cmd, *o);
  cmd->callback([o, names, argv] {
    if (o->out_dir.empty() && o->json_path.empty()) o->out_dir = "perfgate-out";
    auto dir = o->catalog_dir.empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(o->catalog_dir);
    auto catalog = catalog::load_catalog(dir);
    nlohmann::json extra = nlohmann::json::object();
    std::vector<std::string> chosen = *names;
    plan::RunPlan plan;
    if (!o->shard.empty()) {
      const auto shard = plan::parse_shard(o->shard);
      auto sharded = plan::plan_shard(catalog, chosen, shard, *o);
      plan = std::move(sharded.plan);
      extra["shard"] = sharded.info;
      if (sharded.names.empty())
        std::cerr << "perfgate: shard " << o->shard << " has no scenarios (" << sharded.info["of"].get<int>()
                  << " scenarios in " << shard.count << " shards)\n";
    } else {
      plan = plan::plan_run(catalog, chosen, *o);
    }
    if (!o->against_dir.empty()) {
      std::vector<std::string> notes;
      extra["against"] = plan::apply_against(plan, *o, notes);
      for (const auto& n : notes) std::cerr << "perfgate: --against: " << n << "\n";
      if (plan.scenarios.empty()) throw UsageError("--against: no scenario left to compare");
    }
    set_exit_code(execute_plan(plan, *o, argv, extra));
  });
}

}  // namespace perfgate::cli
