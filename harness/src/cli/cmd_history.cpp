// `perfgate history add|show`: every run's figures in SQLite or PostgreSQL, and the series of
// one scenario's metric with its change points (store/history_db.hpp, stats/change_points.hpp).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "stats/change_points.hpp"
#include "store/history_db.hpp"
#include "store/results_input.hpp"

namespace perfgate::cli {
namespace {

using json = nlohmann::json;

std::string default_db() {
  if (const char* e = std::getenv("PERFGATE_HISTORY_DB"); e && *e) return e;
  return ".perfgate/history.sqlite";
}

std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 ? "%.0f" : std::fabs(v) >= 10 ? "%.2f" : "%.4g", v);
  return buf;
}

}  // namespace

void add_history_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("history", "Results history in SQLite (default) or PostgreSQL, with change points");
  cmd->require_subcommand(1);
  auto db = std::make_shared<std::string>();
  auto files = std::make_shared<std::vector<std::string>>();
  const std::string db_help =
      "SQLite file, or a PostgreSQL DSN (postgresql://..., or host=... dbname=...) (default: $PERFGATE_HISTORY_DB or "
      ".perfgate/history.sqlite)";

  auto* add = cmd->add_subcommand("add", "Record the figures of results files (a run already recorded is skipped)");
  add->add_option("results", *files, "Results files")->required()->expected(1, -1);
  add->add_option("--db", *db, db_help);
  add->callback([=] {
    // Every file is read and checked before the database is touched.
    std::vector<json> docs;
    for (const auto& f : *files) docs.push_back(store::load_results(f));
    auto h = store::open_history(db->empty() ? default_db() : *db);
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const bool added = h->add_run(docs[i], (*files)[i]);
      std::cout << (added ? "added   " : "already ") << docs[i]["run"]["id"].get<std::string>() << " (commit "
                << docs[i]["run"]["git"]["commit"].get<std::string>().substr(0, 12) << ", "
                << docs[i]["scenarios"].size() << " scenarios) from " << (*files)[i] << " → " << h->describe() << "\n";
    }
  });

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
  show->add_option("--db", *db, db_help);
  show->add_option("--profile", *profile, "Profile (default: the only one recorded, else quick)");
  show->add_option("--variant", *variant, "Variant whose ratio (or median) to show (default after)");
  show->add_flag("--median", *median, "The variant's median instead of its ratio to its baseline");
  show->add_option("--penalty", fit->penalty, "Penalty multiplier: beta = PENALTY · σ² · ln n (default 2)")
      ->check(CLI::PositiveNumber);
  show->add_option("--min-segment", fit->min_segment, "Fewest runs between change points (default 2)")
      ->check(CLI::Range(1, 100000));
  show->add_option("--min-step", *min_step, "Smallest step reported, percent (default 5)")
      ->check(CLI::Range(0.0, 1000.0));
  show->add_option("--json", *json_out, "Also write the series and change points as JSON here (for plots)");
  show->callback([=] {
    const std::string where = db->empty() ? default_db() : *db;
    if (!store::is_postgres_dsn(where) && !std::filesystem::exists(where))
      throw UsageError("no history at " + where + " (perfgate history add RESULTS.json records runs)");
    auto h = store::open_history(where);
    const std::string kind = *median ? "median" : "ratio";
    std::string prof = *profile;
    if (prof.empty()) {
      std::set<std::string> profiles;
      for (const auto& [p, m] : h->known(*scenario, kind)) profiles.insert(p);
      if (profiles.empty()) throw UsageError("no history of scenario '" + *scenario + "' in " + h->describe());
      prof = profiles.size() == 1 ? *profiles.begin() : profiles.count("quick") ? "quick" : *profiles.begin();
    }
    std::string met = *metric;
    if (met.empty()) {
      auto g = h->gated_metric(*scenario, prof);
      if (!g) throw UsageError("no gated metric recorded for " + *scenario + " at profile " + prof + "; name one");
      met = *g;
    }
    auto points = h->series({*scenario, prof, kind, *variant, met});
    if (points.empty()) {
      std::string known;
      for (const auto& [p, m] : h->known(*scenario, kind))
        if (p == prof) known += (known.empty() ? "" : ", ") + m;
      throw UsageError("no " + kind + " series of " + *scenario + "/" + prof + " " + *variant + " " + met + " in " +
                       h->describe() + (known.empty() ? "" : " (metrics recorded: " + known + ")"));
    }
    fit->min_step = *min_step / 100.0;
    std::vector<double> values;
    for (const auto& p : points) values.push_back(p.value);
    auto steps = stats::fit_steps(values, *fit);
    std::map<std::size_t, const stats::ChangePoint*> at;
    for (const auto& c : steps.points) at[c.index] = &c;

    std::cout << *scenario << " · " << prof << " · "
              << (kind == "ratio" ? "ratio of " + *variant + " to its baseline variant, " : *variant + " median of ")
              << met << " (" << points.front().better << " is better) · " << points.size() << " runs in "
              << h->describe() << "\n";
    std::set<std::string> hosts;
    for (const auto& p : points) hosts.insert(p.host_fingerprint);
    if (kind == "median" && hosts.size() > 1)
      std::cout << "note: " << hosts.size()
                << " hosts in this series: absolute medians of different machines are not "
                   "comparable (ratios are)\n";
    std::cout << "#    started               commit        value        interval\n";
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
      std::snprintf(row, sizeof row, "%-4zu %-21s %-13s %-12s %-22s%s", i + 1, p.started_at.c_str(),
                    (p.commit.substr(0, 12) + (p.dirty ? "+" : "")).c_str(),
                    (num(p.value) + (kind == "ratio" ? "x" : "")).c_str(), iv.c_str(), mark.c_str());
      std::string line = row;
      while (!line.empty() && line.back() == ' ') line.pop_back();
      std::cout << line << "\n";
      jpoints.push_back({{"run_id", p.run_id},
                         {"started_at", p.started_at},
                         {"commit", p.commit},
                         {"dirty", p.dirty},
                         {"host_fingerprint", p.host_fingerprint},
                         {"value", p.value},
                         {"ci", {p.ci_lo ? json(*p.ci_lo) : json(), p.ci_hi ? json(*p.ci_hi) : json()}}});
    }
    char method[300];
    std::snprintf(method, sizeof method,
                  "penalised step fit on %s values: beta = %g · σ² · ln n, σ = %.3g (MAD of successive differences), "
                  "min segment %zu, min step %g%%",
                  steps.log_scale ? "log" : "raw", fit->penalty, steps.sigma, fit->min_segment, *min_step);
    std::cout << "\nchange points (" << method << "): " << steps.points.size() << "\n";
    json jsteps = json::array();
    for (const auto& c : steps.points) {
      const auto& p = points[c.index];
      char buf[64];
      std::snprintf(buf, sizeof buf, "%+.1f%%", (c.change - 1) * 100);
      std::cout << "  run #" << c.index + 1 << ": " << buf << " (" << num(c.mean_before) << " → " << num(c.mean_after)
                << ") at commit " << p.commit << " (" << p.started_at << ")\n";
      jsteps.push_back({{"index", c.index},
                        {"commit", p.commit},
                        {"run_id", p.run_id},
                        {"started_at", p.started_at},
                        {"mean_before", c.mean_before},
                        {"mean_after", c.mean_after},
                        {"change", c.change}});
    }
    if (!json_out->empty())
      write_file_atomic(*json_out, json{{"scenario", *scenario},
                                        {"profile", prof},
                                        {"kind", kind},
                                        {"variant", *variant},
                                        {"metric", met},
                                        {"better", points.front().better},
                                        {"unit", points.front().unit},
                                        {"database", h->describe()},
                                        {"points", jpoints},
                                        {"change_points", jsteps},
                                        {"method",
                                         {{"name", "penalised step fit (optimal partitioning)"},
                                          {"log_scale", steps.log_scale},
                                          {"penalty", fit->penalty},
                                          {"sigma", steps.sigma},
                                          {"beta", steps.beta},
                                          {"min_segment", fit->min_segment},
                                          {"min_step", fit->min_step}}}}
                                           .dump(1) +
                                       "\n");
  });
}

}  // namespace perfgate::cli
