// `perfgate compare OLD.json NEW.json`: two runs side by side, benchstat-style (gate/run_diff.hpp).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/number_format.hpp"
#include "gate/run_diff.hpp"
#include "store/results_codec.hpp"

namespace perfgate::cli {
namespace {

using json = nlohmann::json;

std::string pct(double change) {
  if (!std::isfinite(change)) return "+inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (change - 1) * 100);
  return buf;
}

std::string with_spread(double median, double spread) {
  char buf[32];
  std::snprintf(buf, sizeof buf, " ± %.0f%%", spread * 100);
  return format_number(median) + buf;
}

void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> w(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::string line;
    for (std::size_t i = 0; i < rows[k].size(); ++i) {
      std::string c = rows[k][i];
      c.resize(w[i], ' ');
      line += (i ? "  " : "") + c;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two results files benchstat-style: per scenario, variant and metric the old and new medians, the\n"
      "change with its interval, the Mann-Whitney p (Holm-corrected over every row), ~ where not significant,\n"
      "and the geometric mean over scenarios");
  auto files = std::make_shared<std::vector<std::string>>();
  auto o = std::make_shared<gate::DiffOptions>();
  auto metrics = std::make_shared<std::vector<std::string>>();
  auto fail = std::make_shared<bool>(false);
  auto json_out = std::make_shared<std::string>();
  cmd->add_option("files", *files, "OLD.json NEW.json")->required()->expected(2);
  cmd->add_option("--metric", *metrics,
                  "Metrics to show (repeatable; default: each scenario's gated metric, wall_ms, cpu_ms)");
  cmd->add_flag("--all-metrics", o->all_metrics, "Every metric both runs measured");
  cmd->add_option_function<double>(
         "--noise", [o](double pct) { o->noise = pct / 100.0; },
         "Noise band in percent: a change inside ±PCT is never a verdict (default 2)")
      ->check(CLI::Range(0.0, 99.0));
  cmd->add_option("--alpha", o->alpha, "Family-wise error rate over the rows (default 0.05)")
      ->check(CLI::Range(0.000001, 0.5));
  cmd->add_flag("--fail-on-regression", *fail, "Exit 1 when any row is significantly worse beyond the noise band");
  cmd->add_option("--json", *json_out, "Also write the table as JSON here");
  cmd->callback([=] {
    const auto old_doc = store::read_results(files->at(0)), new_doc = store::read_results(files->at(1));
    o->metrics = std::set<std::string>(metrics->begin(), metrics->end());
    auto d = gate::diff_runs(old_doc, new_doc, *o);
    std::ostream& out = std::cout;
    out << "old: " << files->at(0) << " (commit " << d.old_commit.substr(0, 12) << ", host " << d.old_host << ")\n"
        << "new: " << files->at(1) << " (commit " << d.new_commit.substr(0, 12) << ", host " << d.new_host << ")\n";
    if (!d.same_host) out << "note: different hosts: absolute figures compare machines as much as code\n";
    std::map<std::string, std::vector<const gate::DiffRow*>> by_metric;
    std::vector<std::string> order;
    for (const auto& r : d.rows) {
      if (!by_metric.count(r.metric)) order.push_back(r.metric);
      by_metric[r.metric].push_back(&r);
    }
    int worse = 0;
    for (const auto& metric : order) {
      const auto& rows = by_metric[metric];
      out << "\n"
          << metric << " (" << (rows.front()->unit.empty() ? "count" : rows.front()->unit) << ", "
          << rows.front()->better << " is better)\n";
      std::vector<std::vector<std::string>> t = {{"scenario/variant", "old", "new", "change", "interval", "p", "n"}};
      for (const auto* r : rows) {
        const bool sig = r->verdict != "~";
        char p[64];
        std::snprintf(p, sizeof p, "p=%.3g (Holm %.3g)", r->p, r->p_adjusted);
        t.push_back({r->scenario + "/" + r->variant + (r->profile == "quick" ? "" : " (" + r->profile + ")"),
                     with_spread(r->old_median, r->old_spread), with_spread(r->new_median, r->new_spread),
                     sig ? pct(r->change) + (r->verdict == "worse" ? " worse" : " better") : "~",
                     "[" + pct(r->ci[0]) + ", " + pct(r->ci[1]) + "]", p,
                     std::to_string(r->n_old) + "+" + std::to_string(r->n_new)});
        if (r->verdict == "worse") ++worse;
      }
      for (const auto& g : d.geomeans)
        if (g.metric == metric && g.count > 1)
          t.push_back({"geomean/" + g.variant + " (" + std::to_string(g.count) + " scenarios)",
                       format_number(g.old_value), format_number(g.new_value), pct(g.change), "", "", ""});
      print_table(out, t);
    }
    if (d.rows.empty()) out << "\n(no scenario, variant and metric measured by both runs)\n";
    for (const auto& s : d.only_old) out << "only in old: " << s << "\n";
    for (const auto& s : d.only_new) out << "only in new: " << s << "\n";
    char foot[200];
    std::snprintf(foot, sizeof foot,
                  "\n~: not significant (Holm-corrected Mann-Whitney p >= %g over %zu rows, or the 95%% interval "
                  "touches the ±%g%% noise band)\n",
                  o->alpha, d.rows.size(), o->noise * 100);
    out << foot;
    if (!json_out->empty()) write_file_atomic(*json_out, gate::to_json(d).dump(1) + "\n");
    if (*fail && worse) {
      std::cerr << "perfgate: " << worse << " significant regression" << (worse > 1 ? "s" : "")
                << " beyond the noise band\n";
      set_exit_code(kExitPerformance);
    }
  });
}

}  // namespace perfgate::cli
