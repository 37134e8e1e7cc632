// `perfgate history add|show|publish`: every run's figures in SQLite or PostgreSQL, the series of
// one scenario's metric with its change points (history/history_db.hpp, stats/change_points.hpp),
// and every series as a static site (history/history_publish.hpp).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "export/exports.hpp"
#include "history/history_publish.hpp"
#include "history/history_view.hpp"

namespace perfgate::cli {

void add_history_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("history", "Results history in SQLite (default) or PostgreSQL, with change points");
  cmd->require_subcommand(1);
  auto db = std::make_shared<std::string>();
  auto files = std::make_shared<std::vector<std::string>>();

  auto* add = cmd->add_subcommand("add", "Record the figures of results files (a run already recorded is skipped)");
  add->add_option("results", *files, "Results files")->required()->expected(1, -1);
  flags::history_db(add, *db);
  add->callback([=] { history::add_to_history(std::cout, *files, *db); });

  auto q = std::make_shared<history::HistoryQuery>();
  auto json_out = std::make_shared<std::string>();
  auto* show = cmd->add_subcommand(
      "show",
      "Print a scenario's series and flag its change points (penalised step fit, docs/history.md); --profile "
      "defaults to the only one recorded, else quick");
  show->add_option("scenario", q->scenario, "Scenario name")->required();
  show->add_option("metric", q->metric, "Metric (default: the scenario's gated metric)");
  flags::history_db(show, q->db);
  flags::profile(show, q->profile);
  show->add_option("--variant", q->variant, "Variant whose ratio (or median) to show (default after)");
  show->add_flag("--median", q->median, "The variant's median instead of its ratio to its baseline");
  flags::step_fit(show, q->steps);
  flags::json_file(show, *json_out);  // the series and its change points, for plots
  show->add_option("--host-class", q->host_class,
                   "Only the runs of this host class ('CPU model xCORES', as history publish splits series)");
  show->callback([q, json_out] {
    const auto doc = history::show_history(std::cout, *q);
    if (json_out->empty()) return;
    auto file = exports::json_export("--json", *json_out, doc, 1);
    file.required = true;  // what --json asked for is the command's product: unwritten, exit 4 as before
    exports::write_exports({file}, kExitOk);
  });

  auto site = std::make_shared<history::PublishRequest>();
  auto* publish = cmd->add_subcommand(
      "publish",
      "Write every series as a static site: plots, change points, regressions (docs/history.md); -o DIR is\n"
      "replaced whole: open DIR/index.html");
  flags::out_dir(publish, site->out_dir, true);
  publish->get_option("--out")->required();
  flags::history_db(publish, site->db);
  flags::baseline_choice(publish, site->baseline);  // whose accepted band each series shows
  flags::step_fit(publish, site->steps);
  publish
      ->add_option("--bisect-build", site->bisect_build, "The build command in the regressions' perfgate bisect lines")
      ->capture_default_str();
  publish->callback([=] { history::publish_history(std::cout, *site); });
}

}  // namespace perfgate::cli
