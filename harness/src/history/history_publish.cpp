#include "history/history_publish.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/time_stamp.hpp"
#include "history/history_db.hpp"
#include "history/history_site.hpp"
#include "history/history_site_series.hpp"
#include "history/history_view.hpp"
#include "store/baseline_file.hpp"

namespace perfgate::history {

namespace {

namespace fs = std::filesystem;

// Every change for the worse, newest first (by the first run after it).
std::vector<history::SiteRegression> regressions_of(const std::vector<history::SiteSeries>& series) {
  std::vector<history::SiteRegression> out;
  for (std::size_t i = 0; i < series.size(); ++i)
    for (std::size_t j = 0; j < series[i].changes.size(); ++j)
      if (series[i].changes[j].worse) out.push_back({i, j});
  std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
    return series[a.series].changes[a.change].bad_at > series[b.series].changes[b.change].bad_at;
  });
  return out;
}

}  // namespace

void publish_history(std::ostream& out, const PublishRequest& r) {
  const auto began = std::chrono::steady_clock::now();
  const std::string where = r.db.empty() ? default_history_db() : r.db;
  if (!history::is_postgres_dsn(where) && !fs::exists(where))
    throw UsageError("no history at " + where + " (perfgate history add RESULTS.json records runs)");
  if (r.out_dir.empty()) throw UsageError("history publish: -o DIR names the site's folder");
  auto h = history::open_history(where);
  std::optional<model::Baseline> baseline;
  if (const auto choice = r.baseline.value_or(catalog::BaselineChoice{}); !choice.none())
    baseline = store::load_baseline(choice.kind == catalog::BaselineChoice::Kind::File ? choice.file
                                                                                       : catalog::bundled_baseline());

  history::SiteDoc doc;
  doc.database = h->describe();
  doc.generated_at = now_iso8601();
  doc.perfgate_version = PERFGATE_VERSION;
  const fs::path site_dir = fs::absolute(r.out_dir).lexically_normal();
  const auto keys = h->gated_series();
  if (keys.empty())
    throw UsageError("nothing to publish: no gated comparison recorded in " + doc.database +
                     " (perfgate history add RESULTS.json records runs)");
  std::size_t points = 0, against = 0;
  std::set<std::string> classes;
  for (const auto& key : keys) {
    auto all = h->series(key);
    against += drop_against_runs(all);
    for (const auto& cls : host_classes(all)) {
      const auto mine = of_host_class(all, cls);
      const auto fit = fit_series(mine, r.steps);
      doc.series.push_back(
          site_series({key, cls, &mine, &fit, r.steps, site_dir, r.bisect_build, baseline ? &*baseline : nullptr}));
      points += mine.size();
      classes.insert(cls);
    }
  }
  doc.regressions = regressions_of(doc.series);
  std::size_t changes = 0;
  for (const auto& s : doc.series) changes += s.changes.size();
  history::write_history_site(site_dir, doc, catalog::share_dir() / "reports" / "site");

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.1f s", seconds);
  out << "published " << doc.series.size() << " series (" << classes.size() << " host class(es), " << points
      << " points) with " << changes << " change point(s), " << doc.regressions.size() << " for the worse, from "
      << doc.database << " to " << (site_dir / "index.html").string() << " in " << took << "\n";
  if (against)
    out << "left out " << against
        << " point(s) of run --against runs: their ratio is one build over another, not AFTER over BEFORE\n";
}

}  // namespace perfgate::history
