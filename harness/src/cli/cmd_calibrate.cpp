#include "bisect/revision_runs.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"

namespace perfgate::cli {

void add_calibrate_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "What `perfgate ab`'s defaults can see on this machine, within a time budget: bundled programs of known work\n"
      "(CPU-bound, syscall-heavy, memory-heavy) run as A/A pairs and with injected extra work. Prints and writes,\n"
      "per metric: per-sample CV, per-round log-ratio sd, observed false-alarm rate, the smallest effect detected\n"
      "with 80% and 95% power; per workload: catches of the injected work and the harness's own perturbation of\n"
      "wall time (wall under perfgate against the program's self-timed wall).");
  auto c = std::make_shared<bisect::CalibrateCommand>();
  auto& o = c->programs;
  cmd->add_option(
         "--budget", o.budget_s,
         "Seconds to spend (default 300); a pair is not started when the longest of its kind so far would overrun them")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--workload", o.workloads,
                  "cpu, cpu-duet (the CPU-bound program in --duet rounds), cpu-counted (a tenth of its work, each\n"
                  "sample followed by a valgrind run: instruction counts beside CPU time), syscall, memory\n"
                  "(repeatable; default all)")
      ->check(CLI::IsMember({"cpu", "cpu-duet", "cpu-counted", "syscall", "memory"}));
  cmd->add_option("--extra", o.extra_work, "Injected extra work as a fraction (repeatable; default 0.02 0.05 0.10)")
      ->check(CLI::Range(0.0001, 10.0));
  cmd->add_option("--cpu-iterations", o.cpu_iterations, "Work of the CPU-bound program (xorshift steps)")
      ->capture_default_str();
  cmd->add_option("--syscalls", o.syscalls, "Work of the syscall-heavy program (writes to /dev/null)")
      ->capture_default_str();
  cmd->add_option("--memory-mib", o.memory_mib, "Work of the memory-heavy program (MiB touched)")
      ->capture_default_str();
  flags::gated_metric(cmd, o.metric);
  cmd->add_option("--program", o.program, "The calibration program (default: libexec/perfgate/calibration_work)");
  flags::out_dir(cmd, c->out_dir);
  flags::json_file(cmd, c->json_path);
  flags::rounds(cmd, o.ab);
  flags::noise(cmd, o.ab.noise);
  flags::seed(cmd, o.ab.seed);  // the n-th pair's seed is seed + n
  flags::builds(cmd, c->layouts.source, c->layouts.rounds);
  cmd->add_option("command", c->layouts.command,
                  "With --layouts: the command to time (after --; {rev_dir} is the build)")
      ->expected(-1);
  cmd->callback([c, argv] { set_exit_code(bisect::run_calibrate_command(*c, argv)); });
}

}  // namespace perfgate::cli
