// `perfgate history add|show`: every run's figures in SQLite or PostgreSQL, and the series of
// one scenario's metric with its change points (store/history_db.hpp, stats/change_points.hpp).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "suite/history_view.hpp"

namespace perfgate::cli {

void add_history_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("history", "Results history in SQLite (default) or PostgreSQL, with change points");
  cmd->require_subcommand(1);
  auto db = std::make_shared<std::string>();
  auto files = std::make_shared<std::vector<std::string>>();

  auto* add = cmd->add_subcommand("add", "Record the figures of results files (a run already recorded is skipped)");
  add->add_option("results", *files, "Results files")->required()->expected(1, -1);
  flags::history_db(add, *db);
  add->callback([=] { suite::add_to_history(std::cout, *files, *db); });

  auto scenario = std::make_shared<std::string>(), metric = std::make_shared<std::string>();
  auto profile = std::make_shared<std::string>(), variant = std::make_shared<std::string>("after");
  auto median = std::make_shared<bool>(false);
  auto fit = std::make_shared<stats::StepFitOptions>();
  auto min_step = std::make_shared<double>(5.0);
  auto json_out = std::make_shared<std::string>();
  auto* show = cmd->add_subcommand(
      "show", "Print a scenario's series and flag its change points (penalised step fit, docs/history.md)");
  show->add_option("scenario", *scenario, "Scenario name")->required();
  show->add_option("metric", *metric, "Metric (default: the scenario's gated metric)");
  flags::history_db(show, *db);
  flags::profile(show, *profile);  // default: the only one recorded, else quick
  show->add_option("--variant", *variant, "Variant whose ratio (or median) to show (default after)");
  show->add_flag("--median", *median, "The variant's median instead of its ratio to its baseline");
  show->add_option("--penalty", fit->penalty, "Penalty multiplier: beta = PENALTY · σ² · ln n (default 2)")
      ->check(CLI::PositiveNumber);
  show->add_option("--min-segment", fit->min_segment, "Fewest runs between change points (default 2)")
      ->check(CLI::Range(1, 100000));
  show->add_option("--min-step", *min_step, "Smallest step reported, percent (default 5)")
      ->check(CLI::Range(0.0, 1000.0));
  flags::json_file(show, *json_out);  // the series and its change points, for plots
  show->callback([=] {
    suite::HistoryQuery q{*db, *scenario, *metric, *profile, *variant, *median, *fit, *min_step, *json_out};
    suite::show_history(std::cout, q);
  });
}

}  // namespace perfgate::cli
