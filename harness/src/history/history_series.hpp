// One recorded series as `history show` and `history publish` both see it: the points of one
// scenario × profile × kind × variant × metric, of one host class when asked, and its step fit
// (stats/change_points.hpp) — one path, so the site marks the change points the table prints.
#pragma once

#include <string>
#include <vector>

#include "history/history_db.hpp"
#include "stats/change_points.hpp"

namespace perfgate::history {

// How the change points are found: `history show` and `history publish` take the same flags.
struct StepSettings {
  stats::StepFitOptions fit;
  double min_step_pct = 5;  // --min-step, percent
};

// The step fit of a series' values (ordered by run time, as HistoryDb::series returns them).
stats::StepFit fit_series(const std::vector<history::HistoryPoint>& points, const StepSettings& settings);

// Leaves out the `run --against` runs of a ratio series (their ratio is one build's AFTER over
// another's, not a tree's AFTER over its BEFORE: another quantity); how many.
std::size_t drop_against_runs(std::vector<history::HistoryPoint>& points);

// The host classes of a series' points, in the order they first appear ("" for rows recorded
// before history schema 2, which have none).
std::vector<std::string> host_classes(const std::vector<history::HistoryPoint>& points);

// The points of one host class ("" for those with none), in their order.
std::vector<history::HistoryPoint> of_host_class(const std::vector<history::HistoryPoint>& points,
                                                 const std::string& host_class);

// For people: the class, or what a row without one is.
std::string host_class_label(const std::string& host_class);

}  // namespace perfgate::history
