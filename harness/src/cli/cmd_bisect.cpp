// `perfgate bisect --good REV --bad REV --build CMD -- COMMAND...`: which commit of a git range
// made COMMAND slower, a paired gate at every step (bisect/bisect.hpp), and the table of every
// tested commit (bisect/report_text.hpp).
#include <iostream>
#include <optional>

#include "bisect/bisect.hpp"
#include "bisect/report_text.hpp"
#include "bisect/worktrees.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "common/out_folder_lock.hpp"
#include "common/shell_words.hpp"
#include "export/exports.hpp"
#include "plan/shell.hpp"

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
  auto o = std::make_shared<bisect::BisectOptions>();
  auto repo = std::make_shared<std::string>(".");
  auto cache = std::make_shared<std::string>();
  auto out_dir = std::make_shared<std::string>(defaults::kOutDir);
  auto json_path = std::make_shared<std::string>();
  auto clean = std::make_shared<bool>(false);
  auto script = std::make_shared<std::string>();
  cmd->add_option("--good", o->good, "A revision that is not slower (the reference every step is compared with)");
  cmd->add_option("--bad", o->bad, "A revision that is slower (default: HEAD, as git bisect's)");
  flags::repo(cmd, *repo);
  flags::build_command(cmd, o->build);
  flags::scenario(cmd, o->step.scenario);
  flags::catalog(cmd, o->step.catalog);
  auto shell = std::make_shared<std::string>();
  flags::shell(cmd, *shell);
  flags::gated_metric(cmd, o->step.metric);
  flags::noise(cmd, o->step.band);
  flags::alpha(cmd, o->alpha);
  cmd->add_option("--step-budget", o->step.budget_s,
                  "Seconds one step may spend adding rounds before it says cannot tell")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  flags::layouts(cmd, o->step.layouts, o->step.layout_rounds);
  flags::build_cache(cmd, *cache);
  cmd->add_flag("--clean", *clean, "Remove the cache's worktrees and steps, then exit");
  flags::out_dir(cmd, *out_dir);
  flags::json_file(cmd, *json_path);
  flags::seed(cmd, o->step.options.seed);
  flags::cpus(cmd, o->step.options.cpus);
  flags::timeout(cmd, o->step.options.timeout_s);
  flags::debug_samples(cmd, *script);
  auto* command = cmd->add_option("command", o->step.command, "The command (after --)");
  command->expected(-1);
  cmd->callback([=] {
    o->repo = *repo;
    // Absolute: git makes the worktrees from the repository, the builds run from here.
    o->cache = cache->empty() ? std::filesystem::path() : std::filesystem::absolute(*cache);
    if (*clean) {
      const bisect::Worktrees trees(o->repo, o->cache.empty() ? bisect::default_cache(o->repo) : o->cache);
      trees.clean();
      std::cout << "removed " << trees.cache().string() << "\n";
      return;
    }
    if (o->good.empty()) throw UsageError("bisect needs --good REV, a revision that is not slower (--bad: HEAD)");
    if (o->bad.empty()) o->bad = "HEAD";  // as git bisect's
    if (o->build.empty()) throw UsageError("bisect needs --build CMD (e.g. --build make)");
    if (o->step.command.empty() == o->step.scenario.empty())
      throw UsageError("bisect needs a command after -- (e.g. -- ./prog), or --scenario NAME: one of them");
    if (o->step.layouts > 0 && !o->step.scenario.empty())
      throw UsageError("--layouts times a command in each layout's worktree; it does not take --scenario yet");
    o->step.shell = plan::Shell::from_flag(*shell);
    o->step.argv = argv;
    if (!script->empty()) o->step.script = std::filesystem::absolute(*script);
    std::optional<OutFolderLock> folder;
    if (json_path->empty()) {
      folder.emplace(*out_dir, join_command(argv));
      if (const auto exclude = bisect::exclude_from_status(o->repo, *out_dir))
        std::cerr << "perfgate: " << *out_dir << "/ is kept out of git status by " << exclude->string() << "\n";
    }
    install_interrupt_handlers();
    Progress progress(false);
    const auto report = bisect::run_bisect(*o, progress.sink());
    progress.clear();
    bisect::print_report(std::cout, report, *o);
    const nlohmann::json doc = {
        {"schema_version", 1}, {"kind", "bisect"}, {"command_line", argv}, {"bisect", report.to_json(*o)}};
    const std::filesystem::path file =
        json_path->empty() ? std::filesystem::path(*out_dir) / "bisect.json" : std::filesystem::path(*json_path);
    if (exports::write_exports({exports::json_export("the bisect results", file, doc)}, kExitOk) == 0)
      std::cout << "perfgate: bisect results in " << file.string() << "\n";
    // The worktrees stay (git worktree list shows them) so that a rerun resumes; say where, and
    // what removes them.
    const bisect::Worktrees trees(o->repo, o->cache.empty() ? bisect::default_cache(o->repo) : o->cache);
    std::string clean_line = "perfgate bisect --clean";
    if (*repo != ".") clean_line += " --repo " + shell_quote(*repo);
    if (!cache->empty()) clean_line += " --cache " + shell_quote(*cache);
    std::cout << "perfgate: worktrees and builds of " << trees.kept() << " commit(s) are kept in "
              << trees.cache().string() << " for the next run; `" << clean_line << "` removes them\n";
  });
}

}  // namespace perfgate::cli
