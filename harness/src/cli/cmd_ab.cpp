#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/ab_hyperfine_flags.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "cli/pipeline.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "plan/ab_plan.hpp"
#include "run/child.hpp"
#include "run/gbench_sample.hpp"
#include "run/output_mask.hpp"

namespace perfgate::cli {

namespace {

// `ab`'s own flags, beside hyperfine's (cli/ab_hyperfine_flags.hpp).
struct AbFlags {
  std::string before, after, name = "ab", metric = "auto";
  std::string shell;  // empty or "none": split into words; else the shell's command line
  bool no_shell = false;
  bool allocs = false;
};

// The command as argv: split into words as a shell would, or run by the shell (`sh -c`, or
// hyperfine's --shell=SHELL, which may carry arguments: "bash --norc").
std::vector<std::string> words(const AbFlags& f, const std::string& command) {
  if (f.shell.empty() || f.shell == "none") return run::split_command(command);
  std::vector<std::string> argv = run::split_command(f.shell == "default" ? "/bin/sh" : f.shell);
  argv.push_back("-c");
  argv.push_back(command);
  return argv;
}

}  // namespace

void add_ab_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "ab",
      "Gate your own commands: AFTER against BEFORE (or each command against the first), same stdout required.\n"
      "perfgate ab --before CMD --after CMD, or perfgate ab CMD1 CMD2 ... as hyperfine takes them. They run in\n"
      "this folder; the digest is a hash of stdout; the metrics are what perfgate measures outside the process.");
  auto o = std::make_shared<plan::RunOptions>();
  auto f = std::make_shared<AbFlags>();
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
  cmd->add_flag("--allocs", f->allocs, "Count heap allocations: the same as --measure allocs");
  flags::measure(cmd, o->measures);
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
  flags::debug_samples(cmd, o->debug_samples);
  cmd->callback([=] {
    if (f->no_shell && !f->shell.empty() && f->shell != "none") throw UsageError("-N and --shell: choose one");
    if (f->allocs && std::find(o->measures.begin(), o->measures.end(), "allocs") == o->measures.end())
      o->measures.push_back("allocs");
    o->argv = argv;
    const auto pairs =
        plan::hyperfine_pairs(*hf, f->before, f->after, f->name, [&](const std::string& c) { return words(*f, c); });
    const bool shell = !f->shell.empty() && f->shell != "none";
    for (const auto& p : pairs) run::refuse_gbench_binaries(p.before_argv, p.after_argv, shell, plan::ab_workdir(*o));
    set_exit_code(run_plan(plan::plan_ab_family(pairs, f->metric, *o)).exit_code);
  });
}

}  // namespace perfgate::cli
