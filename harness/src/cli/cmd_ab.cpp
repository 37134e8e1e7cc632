#include <algorithm>

#include "bisect/revision_runs.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "layouts/layout_report.hpp"
#include "plan/ab_plan.hpp"
#include "plan/ab_request.hpp"
#include "plan/shell.hpp"
#include "run/child.hpp"
#include "run/gbench_sample.hpp"
#include "run/output_mask.hpp"
#include "suite/pipeline.hpp"

namespace perfgate::cli {

void add_ab_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "ab",
      "Gate your own commands: AFTER against BEFORE (or each command against the first), same stdout required.\n"
      "perfgate ab --before CMD --after CMD, or perfgate ab CMD1 CMD2 ... as hyperfine takes them. They run in\n"
      "this folder; the digest is a hash of stdout; the metrics are what perfgate measures outside the process.");
  auto o = std::make_shared<plan::RunOptions>();
  auto f = std::make_shared<plan::AbRequest>();
  auto hf = std::make_shared<plan::HyperfineCommands>();
  flags::sides(cmd, f->before, f->after);
  flags::name(cmd, f->name);
  flags::gated_metric(cmd, f->metric);
  flags::shell(cmd, f->shell);
  cmd->add_flag("-N", f->no_shell, "No shell: split each command into words (the default; hyperfine's -N)");
  flags::workdir(cmd, o->workdir);
  cmd->add_flag("--isolate", o->isolate,
                "Run each sample in a fresh empty folder instead (as scenarios do): relative paths to your files\n"
                "then break, and `./prog` is found only without --shell");
  cmd->add_flag("--duet", o->duet,
                "Run BEFORE and AFTER of each round at the same time on two CPUs, swapping them every round "
                "(single-threaded work only; see `perfgate calibrate` for whether it wins here)");
  flags::measure(cmd, o->measures);
  // After --measure: CLI11 runs options' callbacks in the order they are added, and --measure's
  // would replace the list.
  cmd->add_flag_callback(
      "--allocs",
      [o] {
        if (std::find(o->measures.begin(), o->measures.end(), "allocs") == o->measures.end())
          o->measures.push_back("allocs");
      },
      "Count heap allocations: the same as --measure allocs");
  cmd->add_option("--mask", o->masks,
                  "A regular expression (ECMAScript) whose matches in stdout and the $PERFGATE_OUTPUT file are\n"
                  "masked before digesting: timings, pids, temporary paths, dates. Repeatable; the results say\n"
                  "how often each matched, and one that matches nothing is a warning")
      ->allow_extra_args(false)
      ->each([](const std::string& pattern) { run::compile_masks({pattern}); });
  cmd->add_option_function<std::string>(
      "--check", [o](const std::string& c) { o->check = run::split_command(c); },
      "Where two outputs' digests differ, run CMD OUTPUT_A OUTPUT_B (CMD split into words, never through\n"
      "a shell; the unmasked outputs as files; once per distinct pair of digests): exit 0 says they are\n"
      "the same work, anything else fails the equivalence gate (exit 3)");
  add_run_flags(cmd, *o);
  add_hyperfine_flags(cmd, *hf, *o);
  flags::builds(cmd, f->source, f->layout_rounds);
  cmd->add_option("--rev-before", f->rev_before,
                  "REV: compare two revisions of --repo instead of two commands: each is checked out in a worktree\n"
                  "and built there with --build; the command (one for both, or --before/--after) runs in each\n"
                  "worktree ({rev_dir} expands to it). \".\" is the work tree with its uncommitted changes to tracked\n"
                  "files (a commit of them by `git stash create`; untracked files are left out)");
  cmd->add_option("--rev-after", f->rev_after, "REV: the revision compared with --rev-before (default: \".\")");
  flags::debug_samples(cmd, o->debug_samples);
  o->argv = argv;
  cmd->callback([=] {
    const auto shell = plan::Shell::from_flag(f->shell);
    auto pairs = plan::resolve_ab(*f, shell, *hf);
    if (f->revisions())
      bisect::use_revisions(f->source, f->rev_before, f->after_revision(), pairs.front());
    else
      for (const auto& p : pairs)
        run::refuse_gbench_binaries(p.before_argv, p.after_argv, !shell.none(), plan::ab_workdir(*o));
    if (f->source.layouts > 0)
      set_exit_code(layouts::run_over_layouts(pairs.front(), f->source.layouts, f->layout_rounds, f->metric, *o, argv));
    else
      set_exit_code(suite::run_and_show(plan::plan_ab_family(pairs, f->metric, *o)).exit_code);
  });
}

}  // namespace perfgate::cli
