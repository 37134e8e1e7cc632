#include <algorithm>
#include <filesystem>
#include <iostream>

#include "bisect/revisions.hpp"
#include "cli/ab_hyperfine_flags.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "cli/pipeline.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "common/out_folder_lock.hpp"
#include "common/program_path.hpp"
#include "common/shell_words.hpp"
#include "export/exports.hpp"
#include "layouts/layout_ab.hpp"
#include "layouts/layout_report.hpp"
#include "plan/ab_plan.hpp"
#include "plan/shell.hpp"
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
  int layouts = 0, layout_rounds = 3;  // --layouts K: a verdict over K builds of each side
  // --rev-before/--rev-after: two revisions of --repo, each built with --build in its worktree.
  std::string rev_before, rev_after, build, repo = ".", cache;
};

// `ab --layouts K`: the pair's layouts one by one, the verdict over them, OUT/layouts.json.
int run_over_layouts(const AbFlags& f, const plan::AbPair& pair, const plan::RunOptions& o,
                     const std::vector<std::string>& argv) {
  layouts::LayoutRequest r;
  r.name = pair.name;
  r.before_argv = pair.before_argv;
  r.after_argv = pair.after_argv;
  r.before_workdir = pair.before_workdir;
  r.after_workdir = pair.after_workdir;
  r.layouts = f.layouts;
  r.rounds = f.layout_rounds;
  r.metric = f.metric;
  r.options = o;
  const std::filesystem::path out_dir = o.outputs.out_dir.empty() ? defaults::kOutDir : o.outputs.out_dir;
  r.dir = out_dir / "layouts";
  layouts::check_request(r);
  std::optional<OutFolderLock> folder;
  folder.emplace(out_dir, join_command(argv));
  install_interrupt_handlers();
  Progress progress(o.outputs.quiet);
  const auto outcome = layouts::run_layouts(r, progress.sink());
  progress.clear();
  layouts::print_layouts(std::cout, r, outcome);
  const std::filesystem::path file =
      o.outputs.json_path.empty() ? out_dir / "layouts.json" : std::filesystem::path(o.outputs.json_path);
  const nlohmann::json doc = {{"schema_version", 1},
                              {"kind", "layouts"},
                              {"command_line", argv},
                              {"layouts", layouts::layouts_json(r, outcome)}};
  if (exports::write_exports({exports::json_export("the results over layouts", file, doc)}, outcome.exit_code) == 0)
    std::cout << "perfgate: results over layouts in " << file.string() << " (each layout's in " << r.dir.string()
              << "/)\n";
  return outcome.exit_code;
}

// --rev-before/--rev-after: both revisions built, and the pair's commands run in their worktrees
// ({rev_dir} is the worktree; with --layouts, layout {layout}'s).
void use_revisions(const AbFlags& f, plan::AbPair& pair) {
  Progress progress(false);
  const auto trees = bisect::build_revision_pair(f.repo, f.cache.empty() ? "" : std::filesystem::absolute(f.cache),
                                                 f.rev_before, f.rev_after, f.build, f.layouts, progress.sink());
  progress.clear();
  auto place = [](std::vector<std::string>& argv, const std::string& tree) {
    for (auto& w : argv)
      for (auto at = w.find("{rev_dir}"); at != std::string::npos; at = w.find("{rev_dir}", at + tree.size()))
        w.replace(at, 9, tree);
  };
  place(pair.before_argv, trees.before);
  place(pair.after_argv, trees.after);
  pair.before_workdir = trees.before;
  pair.after_workdir = trees.after;
  std::cerr << "perfgate: before = " << f.rev_before << " (" << trees.before_commit.short_sha()
            << "), after = " << f.rev_after << " (" << trees.after_commit.short_sha() << "), built with `" << f.build
            << "`\n";
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
  flags::layouts(cmd, f->layouts, f->layout_rounds);
  cmd->add_option("--rev-before", f->rev_before,
                  "REV: compare two revisions of --repo instead of two commands: each is checked out in a worktree\n"
                  "and built there with --build; the command (one for both, or --before/--after) runs in each\n"
                  "worktree ({rev_dir} expands to it). \".\" is the work tree with its uncommitted changes to tracked\n"
                  "files (a commit of them by `git stash create`; untracked files are left out)");
  cmd->add_option("--rev-after", f->rev_after, "REV: the revision compared with --rev-before (default: \".\")");
  flags::build_command(cmd, f->build);
  flags::repo(cmd, f->repo);
  flags::build_cache(cmd, f->cache);
  flags::debug_samples(cmd, o->debug_samples);
  cmd->callback([=] {
    const auto shell = plan::Shell::from_flag(f->shell);
    if (f->no_shell && !shell.none()) throw UsageError("-N and --shell: choose one");
    if (f->allocs && std::find(o->measures.begin(), o->measures.end(), "allocs") == o->measures.end())
      o->measures.push_back("allocs");
    o->argv = argv;
    const bool revisions = !f->rev_before.empty();
    if (revisions) {
      if (f->build.empty()) throw UsageError("--rev-before needs --build CMD (e.g. --build make)");
      if (f->rev_after.empty()) f->rev_after = ".";
      if (f->before.empty() && f->after.empty() && hf->commands.size() == 1) {
        f->before = f->after = hf->commands.front();  // one command, run in both revisions
        hf->commands.clear();
      }
    } else if (!f->rev_after.empty() || !f->build.empty()) {
      throw UsageError("--rev-after and --build compare two revisions: give --rev-before REV too");
    }
    auto pairs = plan::hyperfine_pairs(*hf, f->before, f->after, f->name,
                                       [&](const std::string& c) { return shell.command(c); });
    if (revisions) {
      if (pairs.size() != 1) throw UsageError("--rev-before compares one command in two revisions, not several");
      use_revisions(*f, pairs.front());
    }
    for (const auto& p : pairs)
      if (!revisions) run::refuse_gbench_binaries(p.before_argv, p.after_argv, !shell.none(), plan::ab_workdir(*o));
    if (f->layouts > 0) {
      if (pairs.size() != 1)
        throw UsageError("--layouts compares one pair: give --before and --after (or two commands), not " +
                         std::to_string(pairs.size()) + " pairs");
      set_exit_code(run_over_layouts(*f, pairs.front(), *o, argv));
      return;
    }
    set_exit_code(run_plan(plan::plan_ab_family(pairs, f->metric, *o)).exit_code);
  });
}

}  // namespace perfgate::cli
