#include <algorithm>
#include <iostream>
#include <optional>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "common/errors.hpp"
#include "common/run_lock.hpp"
#include "plan/against.hpp"
#include "plan/plan.hpp"
#include "plan/shard.hpp"
#include "run/counting_sample.hpp"
#include "suite/gbench_pairs.hpp"

namespace perfgate::cli {

void add_run_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand("run", "Run bundled (or --catalog) scenarios, gate them, write results JSON");
  auto o = std::make_shared<plan::RunOptions>();
  auto names = std::make_shared<std::vector<std::string>>();
  cmd->add_option("scenarios", *names, "Scenarios to run (default: all of the catalog)");
  cmd->add_option("--profile", o->profile, "quick (CI-sized) or full (the write-ups' sizes)")->capture_default_str();
  cmd->add_option("--out", o->out_dir, "Write DIR/results.json (default: perfgate-out)");
  cmd->add_option("--catalog", o->catalog_dir,
                  "A folder of scenario folders instead of the bundled catalog: your project. The results record\n"
                  "the commit of the git repository holding it, and baseline.json in it is the default baseline");
  cmd->add_option("--scenario-arg", o->scenario_args,
                  "VARIANT=ARG: append ARG to that variant's command (test-only flags of a scenario)");
  cmd->add_option("--shard", o->shard,
                  "i/n: run the i-th of n deterministic parts of the selected scenarios (CI job matrix; "
                  "join them with perfgate merge)");
  cmd->add_option("--against", o->against_dir,
                  "DIR: another built perfgate (a worktree of another branch): its AFTER as BEFORE, this build's "
                  "AFTER as AFTER");
  auto measures = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--measure", *measures,
                  "Counting samples in batch scenarios, beside the timed ones. instructions: one run per sample under\n"
                  "valgrind (cachegrind, no cache simulation), gated as metric instructions (Ir): a noise-free proxy\n"
                  "for CPU time, blind to syscalls, I/O and waiting. allocs: one run under perfgate's LD_PRELOAD\n"
                  "allocation counter (allocs, alloc_bytes, peak_heap_bytes; gated where the manifest names them)")
      ->check(CLI::IsMember({"allocs", "instructions"}));
  auto lock = std::make_shared<std::string>();
  auto lock_timeout = std::make_shared<double>(3600);
  cmd->add_option("--lock", *lock,
                  "FILE: measure only while holding this machine's lock, the one perfgate batch --lock takes\n"
                  "(a CI shard on a shared perf VM waits for the batch or shard measuring there)");
  cmd->add_option("--lock-timeout", *lock_timeout, "Seconds to wait for --lock (default 3600)")
      ->check(CLI::PositiveNumber);
  add_shared_flags(cmd, *o);
  cmd->callback([o, names, argv, measures, lock, lock_timeout] {
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
      for (const auto& line : suite::list_gbench_pairs(plan, *o)) std::cerr << "perfgate: --against: " << line << "\n";
    }
    if (!measures->empty()) {
      for (const auto& m : *measures) run::check_counting_measure(m);
      for (auto& s : plan.scenarios) {
        if (s.manifest.kind != catalog::ScenarioKind::Batch) continue;
        for (const auto& m : *measures)
          if (std::find(s.manifest.measure.begin(), s.manifest.measure.end(), m) == s.manifest.measure.end())
            s.manifest.measure.push_back(m);
        if (std::find(measures->begin(), measures->end(), "instructions") != measures->end())
          s.gated_metrics.insert("instructions");
      }
      plan::finish_plan(plan, *o);  // the Holm family grew by the instruction gates
    }
    // Taken once everything that can be wrong with the input has been found.
    std::optional<RunLock> held;
    if (!lock->empty()) {
      std::string what;
      for (const auto& sp : plan.scenarios) what += (what.empty() ? "" : " ") + sp.manifest.name + "/" + sp.profile;
      held.emplace(*lock, *lock_timeout, "perfgate run [" + what + "]", std::cerr);
      extra["lock"] = {{"file", std::filesystem::absolute(*lock).string()},
                       {"waited_s", held->waited_s()},
                       {"waited_for", held->waited_for()},
                       {"acquired_unix", held->acquired_unix()}};
    }
    set_exit_code(execute_plan(plan, *o, argv, extra));
  });
}

}  // namespace perfgate::cli
