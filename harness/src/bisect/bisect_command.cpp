#include "bisect/bisect_command.hpp"

#include <iostream>

#include "bisect/report_text.hpp"
#include "bisect/worktrees.hpp"
#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "common/shell_words.hpp"
#include "export/exports.hpp"
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

void clean_cache(const BisectOptions& o) {
  const Worktrees trees = worktrees_of(o);
  trees.clean();
  std::cout << "removed " << trees.cache().string() << "\n";
}

void run_bisect_command(const BisectOptions& o, const CommandOpening& opening, const std::string& repo,
                        const std::string& cache) {
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
  if (repo != ".") clean_line += " --repo " + shell_quote(repo);
  if (!cache.empty()) clean_line += " --cache " + shell_quote(cache);
  std::cout << "perfgate: worktrees and builds of " << trees.kept() << " commit(s) are kept in "
            << trees.cache().string() << " for the next run; `" << clean_line << "` removes them\n";
}

}  // namespace perfgate::bisect
