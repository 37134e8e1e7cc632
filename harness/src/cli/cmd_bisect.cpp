// `perfgate bisect --good REV --bad REV --build CMD -- COMMAND...`: which commit of a git range
// made COMMAND slower, a paired gate at every step (bisect/bisect_command.hpp).

#include "bisect/bisect_command.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"

namespace perfgate::cli {

void add_bisect_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "bisect",
      "Which commit made it slower: each tested commit of --good..--bad (first-parent) is checked out in a\n"
      "worktree, built with --build, and compared with the good commit's build in paired rounds.\n"
      "  perfgate bisect --good v1.2 --bad main --build make -- ./prog --input data.txt\n"
      "The command runs in each commit's worktree ({rev_dir} expands to it). Worktrees, builds and finished\n"
      "steps are kept in --cache (run it again to resume; --clean removes them); bisect.json goes to --out,\n"
      "which git status is told to ignore (.git/info/exclude) when it lies in the repository.");
  auto c = std::make_shared<bisect::BisectCommand>();
  auto& o = c->options;
  cmd->add_option("--good", o.good, "A revision that is not slower (the reference every step is compared with)");
  cmd->add_option("--bad", o.bad, "A revision that is slower (default: HEAD, as git bisect's)");
  flags::builds(cmd, c->source, o.step.layout_rounds);
  flags::scenario(cmd, o.step.scenario);
  flags::catalog(cmd, o.step.catalog);
  flags::shell(cmd, c->shell);
  flags::gated_metric(cmd, o.step.metric);
  flags::noise(cmd, o.step.band);
  flags::alpha(cmd, o.alpha);
  cmd->add_option("--step-budget", o.step.budget_s,
                  "Seconds one step may spend adding rounds before it says cannot tell")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--clean", c->clean, "Remove the cache's worktrees and steps, then exit");
  flags::out_dir(cmd, c->out_dir);
  flags::json_file(cmd, c->json_path);
  flags::seed(cmd, o.step.options.seed);
  flags::cpus(cmd, o.step.options.cpus);
  flags::timeout(cmd, o.step.options.timeout_s);
  flags::debug_samples(cmd, c->script);
  cmd->add_option("command", o.step.command, "The command (after --)")->expected(-1);
  cmd->callback([c, argv] { bisect::run_bisect_command(*c, argv); });
}

}  // namespace perfgate::cli
