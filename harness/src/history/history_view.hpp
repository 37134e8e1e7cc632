// `perfgate history show`: one scenario's recorded series with its change points, as a table
// and, when asked, as JSON for the plots (history/history_db.hpp, stats/change_points.hpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "history/history_series.hpp"

namespace perfgate::history {

// $PERFGATE_HISTORY_DB, else .perfgate/history.sqlite.
std::string default_history_db();

struct HistoryQuery {
  std::string db;  // empty: default_history_db()
  std::string scenario, metric, profile, variant = "after";
  bool median = false;  // the variant's median instead of its ratio to its baseline
  StepSettings steps;
  // Only the runs of this host class (CPU model × cores; "" for rows recorded before history
  // schema 2): the series `history publish` draws. None: every run.
  std::optional<std::string> host_class;
};

// Prints the series and its change points; returns them as `history show --json` writes them.
// Throws UsageError when there is no history, no such scenario or no such series.
nlohmann::json show_history(std::ostream& out, const HistoryQuery& q);

// Records every results file (all read and checked first); says which were already there.
void add_to_history(std::ostream& out, const std::vector<std::string>& files, const std::string& db);

}  // namespace perfgate::history
