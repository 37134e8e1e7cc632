#include "store/compare_text.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "common/number_format.hpp"
#include "store/text_table.hpp"

namespace perfgate::store {
namespace {

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

}  // namespace

int print_compare_text(std::ostream& out, const gate::RunDiff& d, const std::string& old_file,
                       const std::string& new_file, const gate::DiffOptions& o) {
  out << "old: " << old_file << " (commit " << d.old_commit.substr(0, 12) << ", host " << d.old_host << ")\n"
      << "new: " << new_file << " (commit " << d.new_commit.substr(0, 12) << ", host " << d.new_host << ")\n";
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
        << metric << " (" << (rows.front()->unit.empty() ? "count" : rows.front()->unit) << ", " << rows.front()->better
        << " is better)\n";
    TextRows t = {{"scenario/variant", "old", "new", "change", "interval", "p", "n"}};
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
    print_text_table(out, t);
  }
  if (d.rows.empty()) out << "\n(no scenario, variant and metric measured by both runs)\n";
  for (const auto& s : d.only_old) out << "only in old: " << s << "\n";
  for (const auto& s : d.only_new) out << "only in new: " << s << "\n";
  char foot[200];
  std::snprintf(foot, sizeof foot,
                "\n~: not significant (Holm-corrected Mann-Whitney p >= %g over %zu rows, or the 95%% interval "
                "touches the ±%g%% noise band)\n",
                o.alpha, d.rows.size(), o.noise * 100);
  out << foot;
  return worse;
}

}  // namespace perfgate::store
