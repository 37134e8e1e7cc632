#include "history/history_view.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "gate/baseline_entries.hpp"
#include "history/history_db.hpp"
#include "history/history_series.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"

namespace perfgate::history {
namespace {

using json = nlohmann::json;

std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 ? "%.0f" : std::fabs(v) >= 10 ? "%.2f" : "%.4g", v);
  return buf;
}

// What `baseline update` would make of the run's gated figures: the history keeps their medians'
// intervals, so a baseline made from it (--from-history) equals one made from the files.
std::vector<model::BaselineEntry> gated_entries(const model::ResultsDoc& doc) {
  std::vector<model::BaselineEntry> out;
  for (const auto& s : doc.scenarios) {
    auto e = gate::entries_from_scenario(doc, s);
    out.insert(out.end(), e.begin(), e.end());
  }
  return out;
}

}  // namespace

std::string default_history_db() {
  if (const char* e = std::getenv("PERFGATE_HISTORY_DB"); e && *e) return e;
  return ".perfgate/history.sqlite";
}

void add_to_history(std::ostream& out, const std::vector<std::string>& files, const std::string& db) {
  // Every file is read and checked before the database is touched.
  std::vector<model::ResultsDoc> docs;
  for (const auto& f : files) {
    docs.push_back(store::read_results(f));
    store::require_complete(docs.back(), f);
    store::require_measured(docs.back(), f);
  }
  auto h = history::open_history(db.empty() ? default_history_db() : db);
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const bool added = h->add_run(docs[i], files[i], gated_entries(docs[i]));
    out << (added ? "added   " : "already ") << docs[i].run.id << " (commit " << docs[i].run.commit.substr(0, 12)
        << ", " << docs[i].scenarios.size() << " scenarios) from " << files[i] << " → " << h->describe() << "\n";
  }
}

nlohmann::json show_history(std::ostream& out, const HistoryQuery& query) {
  HistoryQuery q = query;
  const std::string where = q.db.empty() ? default_history_db() : q.db;
  if (!history::is_postgres_dsn(where) && !std::filesystem::exists(where))
    throw UsageError("no history at " + where + " (perfgate history add RESULTS.json records runs)");
  auto h = history::open_history(where);
  const std::string kind = q.median ? "median" : "ratio";
  std::string prof = q.profile;
  if (prof.empty()) {
    std::set<std::string> profiles;
    for (const auto& [p, m] : h->known(q.scenario, kind)) profiles.insert(p);
    if (profiles.empty()) throw UsageError("no history of scenario '" + q.scenario + "' in " + h->describe());
    prof = profiles.size() == 1 ? *profiles.begin() : profiles.count("quick") ? "quick" : *profiles.begin();
  }
  std::string met = q.metric;
  if (met.empty()) {
    auto g = h->gated_metric(q.scenario, prof);
    if (!g) throw UsageError("no gated metric recorded for " + q.scenario + " at profile " + prof + "; name one");
    met = *g;
  }
  auto points = h->series({q.scenario, prof, kind, q.variant, met});
  if (points.empty()) {
    std::string known;
    for (const auto& [p, m] : h->known(q.scenario, kind))
      if (p == prof) known += (known.empty() ? "" : ", ") + m;
    throw UsageError("no " + kind + " series of " + q.scenario + "/" + prof + " " + q.variant + " " + met + " in " +
                     h->describe() + (known.empty() ? "" : " (metrics recorded: " + known + ")"));
  }
  const std::size_t against = q.median ? 0 : drop_against_runs(points);
  if (points.empty())
    throw UsageError("the ratio series of " + q.scenario + " " + met + " in " + h->describe() +
                     " holds run --against runs only (a build over another build: not a series of a tree's ratio)");
  const auto classes = host_classes(points);
  std::string class_list;
  for (const auto& c : classes) class_list += (class_list.empty() ? "'" : ", '") + c + "'";
  if (q.host_class) {
    points = of_host_class(points, *q.host_class);
    if (points.empty())
      throw UsageError("no run of host class '" + *q.host_class + "' in the series of " + q.scenario + " " + met +
                       " (its host classes: " + class_list + ")");
  }
  const stats::StepFitOptions& fit = q.steps.fit;
  auto steps = fit_series(points, q.steps);
  std::map<std::size_t, const stats::ChangePoint*> at;
  for (const auto& c : steps.points) at[c.index] = &c;

  out << q.scenario << " · " << prof << " · "
      << (q.median ? q.variant + " median of " : "ratio of " + q.variant + " to its baseline variant, ") << met << " ("
      << name_of(points.front().better) << " is better) · "
      << (q.host_class ? "host class " + host_class_label(*q.host_class) + " · " : "") << points.size() << " runs in "
      << h->describe() << "\n";
  if (against)
    out << "note: " << against
        << " run --against run(s) left out: their ratio is this build's AFTER over another build's, not AFTER over "
           "BEFORE\n";
  if (!q.host_class && classes.size() > 1)
    out << "note: " << classes.size()
        << " host classes in this series: ratios of different CPU classes differ by factors, so the change points "
           "below mix them; --host-class CLASS fits one, as history publish does: "
        << class_list << "\n";
  std::set<std::string> hosts;
  for (const auto& p : points) hosts.insert(p.host_fingerprint);
  if (q.median && hosts.size() > 1)
    out << "note: " << hosts.size()
        << " hosts in this series: absolute medians of different machines are not "
           "comparable (ratios are)\n";
  out << "#    started               commit        value        interval              outcome\n";
  json jpoints = json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    std::string iv = p.ci_lo && p.ci_hi ? "[" + num(*p.ci_lo) + ", " + num(*p.ci_hi) + "]" : "";
    std::string mark;
    if (auto it = at.find(i); it != at.end()) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "  ◀ step %+.1f%% (%s → %s)", (it->second->change - 1) * 100,
                    num(it->second->mean_before).c_str(), num(it->second->mean_after).c_str());
      mark = buf;
    }
    char row[512];
    // A failed run stays in the series (its figure is what was measured) but says so.
    const std::string outcome = p.exit_code == 0 ? "" : "FAILED (exit " + std::to_string(p.exit_code) + ")";
    std::snprintf(row, sizeof row, "%-4zu %-21s %-13s %-12s %-22s%-16s%s", i + 1, p.started_at.c_str(),
                  (p.commit.substr(0, 12) + (p.dirty ? "+" : "")).c_str(),
                  (num(p.value) + (q.median ? "" : "x")).c_str(), iv.c_str(), outcome.c_str(), mark.c_str());
    std::string line = row;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
    jpoints.push_back({{"run_id", p.run_id},
                       {"started_at", p.started_at},
                       {"commit", p.commit},
                       {"dirty", p.dirty},
                       {"host_fingerprint", p.host_fingerprint},
                       {"value", p.value},
                       {"exit_code", p.exit_code},
                       {"ci", {p.ci_lo ? json(*p.ci_lo) : json(), p.ci_hi ? json(*p.ci_hi) : json()}}});
  }
  if (steps.too_short) {
    out << "\nchange points: none can be placed: " << points.size() << " runs, and with --min-segment "
        << fit.min_segment << " a change needs at least " << 2 * fit.min_segment << " (a segment on each side of it)\n";
  } else {
    char method[300];
    std::snprintf(method, sizeof method,
                  "penalised step fit on %s values: beta = %g · σ² · ln n, σ = %.3g (MAD of successive differences), "
                  "min segment %zu, min step %g%%",
                  steps.log_scale ? "log" : "raw", fit.penalty, steps.sigma, fit.min_segment, q.steps.min_step_pct);
    out << "\nchange points (" << method << "): " << steps.points.size() << "\n";
  }
  json jsteps = json::array();
  for (const auto& c : steps.points) {
    const auto& p = points[c.index];
    const double change_pct = (c.change - 1) * 100;  // the one place it is computed: table and JSON
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.1f%%", change_pct);
    out << "  run #" << c.index + 1 << ": " << buf << " (" << num(c.mean_before) << " → " << num(c.mean_after)
        << ") at commit " << p.commit << " (" << p.started_at << ")\n";
    jsteps.push_back({{"index", c.index},
                      {"commit", p.commit},
                      {"run_id", p.run_id},
                      {"started_at", p.started_at},
                      {"mean_before", c.mean_before},
                      {"mean_after", c.mean_after},
                      {"change", c.change},
                      {"change_pct", change_pct}});
  }
  return json{{"scenario", q.scenario},
              {"profile", prof},
              {"kind", kind},
              {"variant", q.variant},
              {"metric", met},
              {"better", name_of(points.front().better)},
              {"unit", points.front().unit},
              {"database", h->describe()},
              {"host_class", q.host_class ? json(*q.host_class) : json()},
              {"points", jpoints},
              {"change_points", jsteps},
              {"method",
               {{"name", "penalised step fit (optimal partitioning)"},
                {"log_scale", steps.log_scale},
                {"penalty", fit.penalty},
                {"sigma", steps.too_short ? json() : json(steps.sigma)},
                {"beta", steps.beta},
                {"min_segment", fit.min_segment},
                {"min_step", q.steps.min_step_pct / 100.0}}}};
}

}  // namespace perfgate::history
