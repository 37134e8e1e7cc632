#include "bisect/bisect_command.hpp"

#include <iostream>

#include "bisect/report_text.hpp"
#include "bisect/worktrees.hpp"
#include "common/command_opening.hpp"
#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "common/shell_words.hpp"
#include "export/exports.hpp"
#include "plan/shell.hpp"
#include "suite/progress.hpp"

namespace perfgate::bisect {
namespace {

Worktrees worktrees_of(const BisectOptions& o) {
  return Worktrees(o.repo, o.cache.empty() ? default_cache(o.repo) : o.cache);
}

}  // namespace

void check_request(BisectOptions& o) {
  if (o.good.empty()) throw UsageError("bisect needs --good REV, a revision that is not slower (--bad: HEAD)");
  if (o.bad.empty()) o.bad = "HEAD";
  if (o.build.empty()) throw UsageError("bisect needs --build CMD (e.g. --build make)");
  if (o.step.command.empty() == o.step.scenario.empty())
    throw UsageError("bisect needs a command after -- (e.g. -- ./prog), or --scenario NAME: one of them");
  if (o.step.layouts > 0 && !o.step.scenario.empty())
    throw UsageError("--layouts times a command in each layout's worktree; it does not take --scenario yet");
}

void run_bisect_command(BisectCommand& c, const std::vector<std::string>& argv) {
  BisectOptions& o = c.options;
  o.repo = c.source.repo;
  o.build = c.source.build;
  // Absolute: git makes the worktrees from the repository, the builds run from here.
  o.cache = c.source.cache.empty() ? std::filesystem::path() : std::filesystem::absolute(c.source.cache);
  o.step.layouts = c.source.layouts;
  if (c.clean) {
    const Worktrees trees = worktrees_of(o);
    trees.clean();
    std::cout << "removed " << trees.cache().string() << "\n";
    return;
  }
  check_request(o);
  o.step.shell = plan::Shell::from_flag(c.shell);
  o.step.argv = argv;
  if (!c.script.empty()) o.step.script = std::filesystem::absolute(c.script);
  const CommandOpening opening(
      {.out_dir = c.out_dir, .json_path = c.json_path, .json_name = "bisect.json", .argv = argv});
  install_interrupt_handlers();
  suite::Progress progress(false);
  if (opening.holds_folder())
    if (const auto exclude = exclude_from_status(o.repo, opening.out_dir()))
      progress.sink().note(opening.out_dir().string() + "/ is kept out of git status by " + exclude->string(), true);
  const auto report = run_bisect(o, progress.sink());
  progress.clear();
  print_report(std::cout, report, o);
  const nlohmann::json doc = {
      {"schema_version", 1}, {"kind", "bisect"}, {"command_line", opening.argv()}, {"bisect", report.to_json(o)}};
  const std::filesystem::path file = opening.json_file();
  if (exports::write_exports({exports::json_export("the bisect results", file, doc)}, kExitOk) == 0)
    std::cout << "perfgate: bisect results in " << file.string() << "\n";
  // The worktrees stay (git worktree list shows them) so that a rerun resumes; say where, and
  // what removes them.
  const Worktrees trees = worktrees_of(o);
  std::string clean_line = "perfgate bisect --clean";
  if (c.source.repo != ".") clean_line += " --repo " + shell_quote(c.source.repo);
  if (!c.source.cache.empty()) clean_line += " --cache " + shell_quote(c.source.cache);
  std::cout << "perfgate: worktrees and builds of " << trees.kept() << " commit(s) are kept in "
            << trees.cache().string() << " for the next run; `" << clean_line << "` removes them\n";
}

}  // namespace perfgate::bisect
