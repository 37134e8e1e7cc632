#include <algorithm>

#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "plan/ab_plan.hpp"
#include "run/child.hpp"
#include "run/counting_sample.hpp"

namespace perfgate::cli {

void add_ab_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd =
      app.add_subcommand("ab",
                         "Gate a pair of your own commands: AFTER against BEFORE, same stdout required.\n"
                         "The digest is a hash of stdout; the metrics are what perfgate measures outside the process.");
  auto o = std::make_shared<plan::RunOptions>();
  auto before = std::make_shared<std::string>(), after = std::make_shared<std::string>();
  auto name = std::make_shared<std::string>("ab");
  auto metric = std::make_shared<std::string>("auto");
  auto shell = std::make_shared<bool>(false);
  cmd->add_option("--before", *before, "The BEFORE command")->required();
  cmd->add_option("--after", *after, "The AFTER command")->required();
  cmd->add_option("--name", *name, "A name for the pair in the results")->capture_default_str();
  cmd->add_option("--metric", *metric,
                  "The gated metric: auto, wall_ms, cpu_ms, user_ms, sys_ms, peak_rss_kib, syscalls, ...\n"
                  "auto: after the rounds, cgroup CPU time when both sides are CPU-bound ((CPU + run-queue wait)/wall\n"
                  ">= 0.85 from cpu.pressure; CPU/wall >= 0.7 without pressure accounting),\n"
                  "wall time when either side waits (I/O, network, locks, sleeps); the results say which and\n"
                  "why. Whatever is gated, wall time is a no-regress guard with a band of at least 10%, widened\n"
                  "to the run's own wall spread: an AFTER that trades CPU for waiting fails")
      ->capture_default_str();
  cmd->add_flag("--shell", *shell, "Run each command with sh -c instead of splitting it into words");
  cmd->add_option("--workdir", o->workdir,
                  "DIR: the folder every sample runs in (default: the one perfgate was started in); `./prog` and\n"
                  "relative paths are DIR's, with or without --shell");
  cmd->add_flag("--isolate", o->isolate,
                "Run each sample in a fresh empty folder instead (as scenarios do): relative paths to your files\n"
                "then break, and `./prog` is found only without --shell");
  cmd->add_flag("--duet", o->duet,
                "Run BEFORE and AFTER of each round at the same time on two CPUs, swapping them every round "
                "(single-threaded work only; see `perfgate calibrate` for whether it wins here)");
  auto measures = std::make_shared<std::vector<std::string>>();
  auto allocs = std::make_shared<bool>(false);
  cmd->add_flag("--allocs", *allocs,
                "Count heap allocations: after each timed sample, one more run under perfgate's LD_PRELOAD counter\n"
                "(metrics allocs, alloc_bytes, peak_heap_bytes; exact, so one round can decide). With --metric auto,\n"
                "allocs is the gated metric. Same as --measure allocs");
  cmd->add_option("--measure", *measures,
                  "allocs, or instructions: after each timed sample, one more run under valgrind (cachegrind, no\n"
                  "cache simulation) counting instructions executed (Ir), gated as metric instructions with\n"
                  "--metric auto. A noise-free proxy for CPU time, blind to syscalls, I/O and waiting")
      ->check(CLI::IsMember({"allocs", "instructions"}));
  cmd->add_option("--out", o->out_dir, "Write DIR/results.json");
  add_shared_flags(cmd, *o);
  cmd->callback([=] {
    auto words = [&](const std::string& c) {
      return *shell ? std::vector<std::string>{"/bin/sh", "-c", c} : run::split_command(c);
    };
    std::vector<std::string> counting = *measures;
    if (*allocs && std::find(counting.begin(), counting.end(), "allocs") == counting.end())
      counting.push_back("allocs");
    for (const auto& m : counting) run::check_counting_measure(m);
    auto has = [&](const char* m) { return std::find(counting.begin(), counting.end(), m) != counting.end(); };
    // A count asked for is what the user means to gate, unless --metric names something else.
    const std::string gated = *metric != "auto"     ? *metric
                              : has("instructions") ? "instructions"
                              : has("allocs")       ? "allocs"
                                                    : *metric;
    auto plan = plan::plan_ab(*name, words(*before), words(*after), gated, *o);
    for (auto& s : plan.scenarios) s.manifest.measure = counting;
    set_exit_code(execute_plan(plan, *o, argv));
  });
}

}  // namespace perfgate::cli
