#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "plan/gbench_plan.hpp"
#include "suite/benchmark_lister.hpp"
#include "suite/pipeline.hpp"

namespace perfgate::cli {

void add_gbench_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "gbench",
      "Gate two Google Benchmark binaries benchmark by benchmark: AFTER against BEFORE.\n"
      "  perfgate gbench OLD NEW [-- ARGS] (compare.py's order), or --before OLD --after NEW\n"
      "Each round runs both binaries once, back to back in a random order, in the folder perfgate was started in;\n"
      "benchmarks are paired by name, each one a gated comparison of its CPU time (real time under UseRealTime or\n"
      "UseManualTime), Holm-corrected across all of them: one slower benchmark fails the run whatever the others\n"
      "gained. items_per_second and bytes_per_second are reported as rates (higher is better); other counters are\n"
      "reported, not gated. A benchmark only one binary has is listed, not compared. Both binaries run pinned to\n"
      "one CPU, at fixed addresses (as setarch -R) and at nice -20 where perfgate may raise a priority (root or\n"
      "CAP_SYS_NICE; a note says when it may not): docs/gbench.md.");
  auto o = std::make_shared<plan::RunOptions>();
  auto g = std::make_shared<plan::GbenchArgs>();
  flags::sides(cmd, g->before, g->after);
  cmd->add_option("--filter", g->filter, "REGEX: the benchmarks to compare (--benchmark_filter for both)");
  flags::name(cmd, g->name);
  cmd->add_option("OLD-NEW", g->args,
                  "OLD NEW (without --before/--after), then after --: arguments for both binaries, as given "
                  "(gbench OLD NEW -- --benchmark_filter=X). perfgate passes --benchmark_repetitions=1 and\n"
                  "--benchmark_min_time=0.005 (seconds: libbenchmark 1.7 takes plain seconds) unless you do; with\n"
                  "--benchmark_repetitions=N each run's N repetitions give the round their median")
      ->expected(-1);  // every positional word, those after -- too
  // CLI11 2.1 hands `--` back to the top level once every positional has its fewest words (OLD NEW
  // fill "args"), and the words after it then read as perfgate's own options. A positional that
  // never fills keeps `--` here; nothing reaches it, "args" takes every word first.
  cmd->add_option_function<std::string>(
      "ARGS", [](const std::string&) {}, "after --: arguments for both binaries (read with OLD-NEW's words)");
  flags::workdir(cmd, o->workdir);
  add_run_flags(cmd, *o);
  flags::debug_samples(cmd, o->debug_samples);
  cmd->callback([=] {
    o->argv = argv;
    set_exit_code(suite::run_and_show(plan::plan_gbench(*g, *o, suite::benchmark_lister())).exit_code);
  });
}

}  // namespace perfgate::cli
