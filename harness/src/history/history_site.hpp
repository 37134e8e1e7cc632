// The history site (`perfgate history publish`, docs/history.md "The site"): static pages that
// open from file:// and from any static web server, with no network at view time. Each page is
// a small HTML file naming its data (data/PAGE.js, `window.PERFGATE_PAGE = {...}`: a page opened
// from file:// may not fetch() a JSON file) and the site's own script, copied from
// share/perfgate/reports/site/, which draws the plots as SVG. Every figure arrives formatted
// (common/number_format): the script formats nothing. `history publish` decides every value here
// (history/history_publish.hpp); this file only lays them out on disk.
//
//   DIR/index.html          every series: scenario × profile × gated metric × host class
//   DIR/regressions.html    every change point for the worse, newest first, with its bisect command
//   DIR/series-SLUG.html    one series: its runs, intervals, accepted band, change points
//   DIR/data/*.js           each page's data;  DIR/assets/  the script and style sheet
//   DIR/.perfgate-site      marks the folder as a site this command may replace
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::history {

// One recorded run on a series page; the texts are for people, the numbers for the plot.
struct SitePoint {
  double value = 0;
  std::optional<double> lo, hi;  // its interval
  std::string run_id, commit, branch, started_at;
  bool dirty = false;
  int exit_code = 0;
  std::string ratio_text;   // "0.651x [0.64, 0.66]"
  std::string verdict;      // the comparison's, within its run
  std::string reproduce;    // the command that re-runs its scenario; empty: not recorded
  std::string report_href;  // relative to the site's folder; empty: no report.md beside its results
};

// A change point: the first run of a new level, between two commits.
struct SiteChange {
  std::size_t index = 0;                   // of the first point after the change
  std::string good_commit, bad_commit;     // the last run's before it, the first's after it
  std::string good_at, bad_at;             // their start times
  double mean_before = 0, mean_after = 0;  // the fitted levels on either side
  std::string change_text;                 // "+30.2%"
  std::string levels_text;                 // "0.5x → 0.651x"
  bool worse = false;                      // toward the metric's bad side
  std::string bisect;                      // the `perfgate bisect` command that would narrow it
  std::string bisect_note;                 // why there is none
};

struct SiteTick {
  double at = 0;  // a value (y) or a point's index (x)
  std::string text;
};

struct SiteSeries {
  std::string slug;  // the page is series-SLUG.html
  std::string scenario, profile, variant, baseline, metric, unit, better, host_class;
  std::string title, subtitle, y_label, x_label, better_text;  // better_text: "lower is better"
  double y_min = 0, y_max = 1;
  std::vector<SiteTick> y_ticks, x_ticks;
  std::vector<SitePoint> points;  // oldest first
  std::vector<SiteChange> changes;
  std::optional<std::array<double, 2>> band;  // the ratios the baseline gate accepts
  std::string band_text;                      // what the band is, or why there is none
  std::string latest_text, last_change_text;  // for the index
  bool last_change_worse = false;
  std::vector<double> spark;  // the series, at most a few hundred values, for the index
  std::string method_text, show_command;
};

struct SiteRegression {
  std::size_t series = 0, change = 0;  // indices into SiteDoc::series and its changes
};

struct SiteDoc {
  std::vector<SiteSeries> series;
  std::vector<SiteRegression> regressions;  // newest first
  std::string database, generated_at, perfgate_version;
};

// Writes the site into `dir` whole or not at all (common/files.hpp StagedDir), the assets copied
// from `assets`. Throws UsageError when `dir` exists and is neither empty nor a site this command
// wrote (no .perfgate-site in it): it would be replaced.
void write_history_site(const std::filesystem::path& dir, const SiteDoc& doc, const std::filesystem::path& assets);

}  // namespace perfgate::history
