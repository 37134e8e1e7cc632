// `perfgate baseline update|check|show|stamp`: write the accepted figures of a run into
// baseline.json, check a results file against them, list them (suite/baseline_command.hpp).
// docs/baseline.md.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "history/history_db.hpp"
#include "suite/baseline_command.hpp"

namespace perfgate::cli {
namespace {

const CLI::Validator kIsoDate([](std::string& s) { return history::check_time_bound(s); }, "ISO-DATE");

void add_stamp_command(CLI::App& cmd, std::shared_ptr<std::string> file, std::shared_ptr<bool> dry) {
  auto catalog_dir = std::make_shared<std::string>();
  auto* stamp = cmd.add_subcommand(
      "stamp",
      "Give accepted runs recorded before fingerprints this build's fingerprint where git shows their "
      "scenario's sources unchanged since the run's commit (the rest stay stale)");
  flags::baseline_file(stamp, *file);
  flags::catalog(stamp, *catalog_dir);
  flags::dry_run(stamp, *dry);
  stamp->callback([=] { suite::stamp_baseline_file(std::cout, *file, *catalog_dir, *dry); });
}

}  // namespace

void add_baseline_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("baseline", "The accepted figures every run is compared with (baseline.json)");
  cmd->require_subcommand(1);
  auto file = std::make_shared<std::string>();
  auto results = std::make_shared<std::string>();
  auto dry = std::make_shared<bool>(false);
  auto tolerance = std::make_shared<double>(defaults::kBaselineTolerance);
  auto alpha = std::make_shared<double>(defaults::kAlpha);
  auto u = std::make_shared<suite::BaselineUpdateRequest>();

  auto* update = cmd->add_subcommand(
      "update", "Write or refresh the entries of every gated metric of RESULTS.json files (says which)");
  auto* files_opt = update->add_option("results", u->results_files,
                                       "Results files of perfgate run: each is one accepted run of every entry it has");
  auto* from_opt =
      update
          ->add_option("--from-history", u->from_history,
                       "Take the accepted runs from this history database instead (a SQLite file or a PostgreSQL "
                       "DSN, as history add --db): clean runs whose every gate passed")
          ->excludes(files_opt);
  update->add_option("--branch", u->accepted.branch, "With --from-history: only runs of this branch (default: any)")
      ->needs(from_opt);
  update->add_option("--since", u->accepted.since, "With --from-history: only runs started at or after this UTC time")
      ->needs(from_opt)
      ->transform(kIsoDate);
  update
      ->add_option("--newest", u->accepted.newest,
                   "With --from-history: the newest N runs per entry and host class (default 10)")
      ->needs(from_opt)
      ->check(CLI::Range(1, 1000000));
  update->add_flag("--append", u->append, "Add these runs to the entries' accepted runs (default: they replace them)");
  flags::baseline_file(update, u->file);
  flags::scenarios(update, u->only);
  flags::dry_run(update, u->dry_run);
  update->callback([u] {
    if (u->results_files.empty() && u->from_history.empty())
      throw UsageError("baseline update: give results files, or --from-history DB");
    suite::update_baseline_file(std::cout, *u);
  });

  auto* check =
      cmd->add_subcommand("check", "Compare a results file with the baseline, as run does (exit 1 on a regression)");
  check->add_option("results", *results, "A results file")->required();
  flags::baseline_file(check, *file);
  flags::baseline_tolerance(check, *tolerance);
  flags::alpha(check, *alpha);
  check->callback([=] { set_exit_code(suite::check_baseline(std::cout, *results, *file, *alpha, *tolerance)); });

  auto* show = cmd->add_subcommand("show", "List the baseline's entries");
  show->add_option("results", *results, "A results file: show the baseline it defaults to (a --catalog run's own)");
  flags::baseline_file(show, *file);
  show->callback([=] { suite::show_baseline(std::cout, *file, *results); });

  add_stamp_command(*cmd, file, dry);
}

}  // namespace perfgate::cli
