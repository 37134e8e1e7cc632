#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli/ab_hyperfine_flags.hpp"
#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/program_path.hpp"
#include "plan/ab_plan.hpp"
#include "run/child.hpp"
#include "run/counting_sample.hpp"
#include "run/gbench_sample.hpp"
#include "run/output_mask.hpp"
#include "store/ab_text.hpp"

namespace perfgate::cli {

namespace {

// `ab`'s own flags, beside hyperfine's (cli/ab_hyperfine_flags.hpp).
struct AbFlags {
  std::string before, after, name = "ab", metric = "auto";
  std::string shell;  // empty or "none": split into words; else the shell's command line
  bool no_shell = false;
  std::vector<std::string> measures;
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

// A Google Benchmark binary runs each benchmark for a fixed time: its wall and CPU time say
// nothing about its speed, and its timing output differs from run to run. `ab` would print a
// ratio that means nothing, so it points at `perfgate gbench` instead (exit 2).
void refuse_gbench_binaries(const std::vector<std::string>& before, const std::vector<std::string>& after, bool shell,
                            const plan::RunOptions& o) {
  // The program: argv[0], or under a shell the command line's first word (`sh -c "./bench"`).
  auto program_of = [shell](const std::vector<std::string>& argv) -> std::string {
    if (!shell) return argv.front();
    try {
      const auto words = run::split_command(argv.back());
      return words.empty() ? "" : words.front();
    } catch (const Error&) {
      return "";  // shell syntax perfgate does not split: the shell's to run
    }
  };
  const std::string programs[] = {program_of(before), program_of(after)};
  for (const auto* argv : {&before, &after}) {
    const std::string& name = programs[argv == &before ? 0 : 1];
    bool gbench = false;
    for (const auto& word : *argv) gbench = gbench || word.find("--benchmark_") != std::string::npos;
    if (!gbench && !name.empty()) {
      namespace fs = std::filesystem;
      fs::path program = name;
      const std::string dir = plan::ab_workdir(o);
      if (program.is_relative() && name.find('/') != std::string::npos && !dir.empty()) program = dir / program;
      try {
        if (name.find('/') == std::string::npos) program = resolve_program(name);
        gbench = run::is_gbench_binary(program);
      } catch (const Error&) {
        // not found, or a shell word such as `cd`: plan_ab says so in its own words, or the shell runs it
      }
    }
    if (gbench)
      throw UsageError(
          "ab: " + (name.empty() ? argv->back() : name) +
          " is a Google Benchmark binary: it runs each benchmark for a fixed time, so its wall and CPU "
          "time say nothing. Compare two of them benchmark by benchmark with\n  perfgate gbench --before " +
          programs[0] + " --after " + programs[1] + " [--filter REGEX] [-- ARGS]");
  }
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
  auto hf = std::make_shared<HyperfineFlags>();
  cmd->add_option("--before", f->before, "The BEFORE command");
  cmd->add_option("--after", f->after, "The AFTER command");
  cmd->add_option("--name", f->name, "A name for the pair in the results")->capture_default_str();
  cmd->add_option("--metric", f->metric,
                  "The gated metric: auto, wall_ms, cpu_ms, user_ms, sys_ms, peak_rss_kib, syscalls, ...\n"
                  "auto: after the rounds, cgroup CPU time when both sides are CPU-bound ((CPU + run-queue wait)/wall\n"
                  ">= 0.85 from cpu.pressure; CPU/wall >= 0.7 without pressure accounting),\n"
                  "wall time when either side waits (I/O, network, locks, sleeps); the results say which and\n"
                  "why. Whatever is gated, wall time is a no-regress guard with a band of at least 10%, widened\n"
                  "to the run's own wall spread: an AFTER that trades CPU for waiting fails")
      ->capture_default_str();
  cmd->add_flag("--shell{/bin/sh}", f->shell,
                "Run each command with sh -c instead of splitting it into words; --shell=SHELL another shell\n"
                "(hyperfine's: a name or a command line such as \"bash --norc\"; none: no shell)");
  cmd->add_flag("-N", f->no_shell, "No shell: split each command into words (the default; hyperfine's -N)");
  cmd->add_option("--workdir", o->workdir,
                  "DIR: the folder every sample runs in (default: the one perfgate was started in); `./prog` and\n"
                  "relative paths are DIR's, with or without --shell");
  cmd->add_flag("--isolate", o->isolate,
                "Run each sample in a fresh empty folder instead (as scenarios do): relative paths to your files\n"
                "then break, and `./prog` is found only without --shell");
  cmd->add_flag("--duet", o->duet,
                "Run BEFORE and AFTER of each round at the same time on two CPUs, swapping them every round "
                "(single-threaded work only; see `perfgate calibrate` for whether it wins here)");
  cmd->add_flag("--allocs", f->allocs,
                "Count heap allocations: after each timed sample, one more run under perfgate's LD_PRELOAD counter\n"
                "(metrics allocs, alloc_bytes, peak_heap_bytes; exact, so one round can decide). With --metric auto,\n"
                "allocs is the gated metric. Same as --measure allocs");
  cmd->add_option("--measure", f->measures,
                  "allocs, or instructions: after each timed sample, one more run under valgrind (cachegrind, no\n"
                  "cache simulation) counting instructions executed (Ir), gated as metric instructions with\n"
                  "--metric auto. A noise-free proxy for CPU time, blind to syscalls, I/O and waiting")
      ->check(CLI::IsMember({"allocs", "instructions"}))
      ->allow_extra_args(false);
  auto masks = std::make_shared<std::vector<std::string>>();
  auto check = std::make_shared<std::string>();
  cmd->add_option("--mask", *masks,
                  "A regular expression (ECMAScript) whose matches in stdout and the $PERFGATE_OUTPUT file are\n"
                  "masked before digesting: timings, pids, temporary paths, dates. Repeatable; the results say\n"
                  "how often each matched, and one that matches nothing is a warning")
      ->allow_extra_args(false);
  cmd->add_option("--check", *check,
                  "Where two outputs' digests differ, run CMD OUTPUT_A OUTPUT_B (CMD split into words, never through\n"
                  "a shell; the unmasked outputs as files; once per distinct pair of digests): exit 0 says they are\n"
                  "the same work, anything else fails the equivalence gate (exit 3)");
  cmd->add_option("--out", o->out_dir, "Write DIR/results.json (default: perfgate-out)");
  add_shared_flags(cmd, *o);
  add_hyperfine_flags(cmd, *hf, *o);
  cmd->callback([=] {
    if (f->no_shell && !f->shell.empty() && f->shell != "none") throw UsageError("-N and --shell: choose one");
    if (o->out_dir.empty() && o->json_path.empty()) o->out_dir = "perfgate-out";
    std::vector<std::string> counting = f->measures;
    if (f->allocs && std::find(counting.begin(), counting.end(), "allocs") == counting.end())
      counting.push_back("allocs");
    for (const auto& m : counting) run::check_counting_measure(m);
    auto has = [&](const char* m) { return std::find(counting.begin(), counting.end(), m) != counting.end(); };
    // A count asked for is what the user means to gate, unless --metric names something else.
    const std::string gated = f->metric != "auto"   ? f->metric
                              : has("instructions") ? "instructions"
                              : has("allocs")       ? "allocs"
                                                    : f->metric;
    const auto pairs =
        hyperfine_pairs(*hf, f->before, f->after, f->name, [&](const std::string& c) { return words(*f, c); });
    const bool shell = !f->shell.empty() && f->shell != "none";
    for (const auto& p : pairs) refuse_gbench_binaries(p.before_argv, p.after_argv, shell, *o);
    auto plan = plan::plan_ab_family(pairs, gated, *o);
    run::compile_masks(*masks);  // a malformed pattern is exit 2 before anything runs
    for (auto& s : plan.scenarios) {
      s.manifest.measure = counting;
      s.output_masks = *masks;
      if (!check->empty())
        s.output_check = run::split_command(*check);  // never through --shell: the files are appended
    }
    auto after_table = [o, hf](const model::ResultsDoc& doc) {
      if (!o->quiet) store::print_ab_summary(std::cout, doc, hf->time_unit);
      auto write = [](const std::string& file, const std::string& text) {
        if (file.empty()) return;
        try {
          write_file_atomic(file, text);
        } catch (const std::exception& e) {
          std::cerr << "perfgate: error: " << e.what() << " (not written; the exit code is still the gates')\n";
        }
      };
      write(hf->export_markdown, store::ab_markdown(doc, hf->time_unit));
      write(hf->export_csv, store::ab_csv(doc));
    };
    set_exit_code(execute_plan(plan, *o, argv, nlohmann::json::object(), after_table));
  });
}

}  // namespace perfgate::cli
