// One series of the history site as its page shows it (history::SiteSeries): every run's figure
// and interval formatted (common/number_format), the axes, the change points of its step fit with
// the commits on either side and the bisect command, the band baseline.json accepts, the report
// beside each run's results file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "history/history_db.hpp"
#include "history/history_series.hpp"
#include "history/history_site.hpp"
#include "model/results_model.hpp"
#include "stats/change_points.hpp"

namespace perfgate::history {

struct SiteSeriesInput {
  history::SeriesQuery key;
  std::string host_class;
  const std::vector<history::HistoryPoint>* points = nullptr;  // of this class, oldest first
  const stats::StepFit* fit = nullptr;
  StepSettings steps;
  std::filesystem::path site_dir;  // where the site will be: report links are relative to it
  std::string bisect_build;
  const model::Baseline* baseline = nullptr;  // none: no band
};

history::SiteSeries site_series(const SiteSeriesInput& in);

// The `perfgate bisect` command that narrows a change between two commits: a catalog scenario's
// (its reproduce line is `perfgate run ...`) runs as `run --against` runs it; anything else names
// the command to time, which the reproduce line holds.
std::string bisect_command(const history::SeriesQuery& key, const std::string& good, const std::string& bad,
                           const std::string& reproduce, const std::string& build);

// "[lo, hi]" ticks at 1, 2, 2.5 or 5 × 10^k covering [lo, hi], about `count` of them.
std::vector<double> nice_ticks(double lo, double hi, int count);

// At most `most` values standing for the series (the median of each run of consecutive values).
std::vector<double> sparkline(const std::vector<double>& values, std::size_t most);

}  // namespace perfgate::history
