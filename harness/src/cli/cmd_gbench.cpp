#include <iostream>

#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "plan/gbench_plan.hpp"
#include "suite/gbench_pairs.hpp"

namespace perfgate::cli {

void add_gbench_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "gbench",
      "Gate two Google Benchmark binaries benchmark by benchmark: AFTER against BEFORE.\n"
      "Each round runs both binaries once, back to back in a random order, in the folder perfgate was started in;\n"
      "benchmarks are paired by name, each one a gated comparison of its CPU time (real time under UseRealTime or\n"
      "UseManualTime), Holm-corrected across all of them: one slower benchmark fails the run whatever the others\n"
      "gained. items_per_second and bytes_per_second are reported as rates (higher is better); other counters are\n"
      "reported, not gated. A benchmark only one binary has is listed, not compared.");
  auto o = std::make_shared<plan::RunOptions>();
  auto g = std::make_shared<plan::GbenchArgs>();
  cmd->add_option("--before", g->before, "The BEFORE binary (a path, or a name on PATH)")->required();
  cmd->add_option("--after", g->after, "The AFTER binary")->required();
  cmd->add_option("--filter", g->filter, "REGEX: the benchmarks to compare (--benchmark_filter for both)");
  cmd->add_option("--name", g->name, "A name for the comparison in the results")->capture_default_str();
  cmd->add_option("args", g->args,
                  "After --: arguments for both binaries, as given. perfgate passes --benchmark_repetitions=1 and\n"
                  "--benchmark_min_time=0.05 (seconds: libbenchmark 1.7 takes plain seconds) unless you do; with\n"
                  "--benchmark_repetitions=N each run's N repetitions give the round their median");
  cmd->add_option("--workdir", o->workdir,
                  "DIR: the folder both binaries run in (default: the one perfgate was started in), so relative\n"
                  "input paths mean what they mean at your prompt");
  cmd->add_option("--out", o->out_dir, "Write DIR/results.json (default: perfgate-out)");
  add_shared_flags(cmd, *o);
  cmd->callback([=] {
    if (o->out_dir.empty() && o->json_path.empty()) o->out_dir = "perfgate-out";  // as run and ab: report reads it
    auto plan = plan::plan_gbench(*g, *o);
    for (const auto& line : suite::list_gbench_pairs(plan, *o)) std::cerr << "perfgate: " << line << "\n";
    set_exit_code(execute_plan(plan, *o, argv));
  });
}

}  // namespace perfgate::cli
