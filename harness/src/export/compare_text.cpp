#include "export/compare_text.hpp"

#include <cmath>
#include <cstdio>
#include <map>

#include "common/number_format.hpp"
#include "export/text_table.hpp"

namespace perfgate::exports {

std::string pct(double change) { return format_change(change); }

std::string row_verdict(const gate::RunDiff& d, const gate::DiffRow& row) {
  if (row.verdict == stats::Verdict::CannotTell) return gate::compare_word(row.verdict);
  for (const auto& g : d.gate)
    if (&d.rows[g.row] == &row) return gate::compare_word(row.verdict);
  // Not a row the gate judges: which way the figure moved, never whether that is good.
  const bool up = row.change > 1;
  return up ? "higher" : "lower";
}

std::string interval(const std::array<double, 2>& ci) { return "[" + pct(ci[0]) + ", " + pct(ci[1]) + "]"; }

// The report's comparison.md prints the same text (fmt.p_value is format_p_value's twin).
std::string p_text(double p, double p_adjusted) {
  return "p=" + format_p_value(p) + " (Holm " + format_p_value(p_adjusted) + ")";
}

std::string outcome_text(const gate::RunOutcome& o) {
  return o.status + " (exit " + std::to_string(o.exit_code) + ")" +
         (o.message.empty() || o.message == o.status ? "" : ": " + o.message);
}

std::string commit_text(const std::string& commit, bool dirty) {
  return commit.substr(0, 12) + (dirty ? " (dirty)" : "");
}

std::string variants_gated(const gate::DiffOptions& o) {
  if (o.gate_variants.empty()) return "variant after (or a scenario's only variant)";
  std::string names;
  for (const auto& v : o.gate_variants) names += (names.empty() ? "" : ", ") + v;
  return "variant " + names;
}

// The figure a gate row is judged on, as its table cell: raw rows say so.
std::string judged_change(const gate::GateRow& g) { return (g.drift_corrected ? "" : "(raw) ") + pct(g.change); }

std::string reference_moved(const gate::RunDiff& d, const gate::GateRow& g) {
  if (!g.reference) return "-";
  const auto& ref = d.rows[*g.reference];
  return ref.variant + " " + pct(ref.change);
}

void print_outcomes(std::ostream& out, const gate::RunDiff& d) {
  out << "old outcome: " << outcome_text(d.old_outcome) << "\n"
      << "new outcome: " << outcome_text(d.new_outcome) << "\n";
}

void print_gate_text(std::ostream& out, const gate::RunDiff& d, const gate::DiffOptions& options,
                     const gate::GateDecision& verdict) {
  if (!d.gate.empty()) {
    out << "\ngate: " << variants_gated(options)
        << ", each change divided by its reference variant's (machine drift moves both)\n";
    TextRows t = {{"scenario/variant", "metric", "change", "reference", "drift-corrected", "interval", "p", "verdict"}};
    for (const auto& g : d.gate) {
      const auto& r = d.rows[g.row];
      t.push_back({r.scenario + "/" + r.variant + (r.profile == "quick" ? "" : " (" + r.profile + ")"), r.metric,
                   pct(r.change), reference_moved(d, g), judged_change(g), interval(g.ci), p_text(g.p, g.p_adjusted),
                   gate::compare_word(g.verdict)});
    }
    print_text_table(out, t);
    for (const auto& g : d.gate)
      if (!g.drift_corrected)
        out << "(raw) " << d.rows[g.row].scenario << "/" << d.rows[g.row].variant << " " << d.rows[g.row].metric
            << ": judged on its own change: " << g.basis << "\n";
  }
  out << "gate: " << verdict.headline << "\n";
}

namespace {

std::string with_spread(double median, double spread, const std::string& unit) {
  char buf[32];
  std::snprintf(buf, sizeof buf, " ± %.0f%%", spread * 100);
  return format_quantity(median, unit) + buf;
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
        << metric << " (" << (rows.front()->unit.empty() ? "count" : rows.front()->unit) << ", "
        << name_of(rows.front()->better) << " is better)\n";
    TextRows t = {{"scenario/variant", "old", "new", "change", "interval", "p", "n"}};
    for (const auto* r : rows) {
      const bool sig = r->verdict != stats::Verdict::CannotTell;
      const std::string p = p_text(r->p, r->p_adjusted);
      t.push_back({r->scenario + "/" + r->variant + (r->profile == "quick" ? "" : " (" + r->profile + ")"),
                   with_spread(r->old_median, r->old_spread, r->unit),
                   with_spread(r->new_median, r->new_spread, r->unit),
                   sig ? pct(r->change) + " " + row_verdict(d, *r) : "~", interval(r->ci), p,
                   std::to_string(r->n_old) + "+" + std::to_string(r->n_new)});
      if (r->verdict == stats::Verdict::Worse) ++worse;
    }
    for (const auto& g : d.geomeans)
      if (g.metric == metric && g.count > 1)
        t.push_back({"geomean/" + g.variant + " (" + std::to_string(g.count) + " scenarios)",
                     format_quantity(g.old_value, rows.front()->unit), format_quantity(g.new_value, rows.front()->unit),
                     pct(g.change), "", "", ""});
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

namespace {

std::string command_line(const std::vector<std::string>& argv) {
  // A command run through a shell reads as it was typed.
  if (argv.size() >= 3 && argv[argv.size() - 2] == "-c") return argv.back();
  std::string line;
  for (const auto& w : argv) line += (line.empty() ? "" : " ") + w;
  return line;
}

}  // namespace

std::vector<std::string> print_commands(std::ostream& out, const model::ResultsDoc& old_doc,
                                        const model::ResultsDoc& new_doc) {
  std::vector<std::string> warnings;
  TextRows rows{{"scenario", "variant", "old run", "new run"}};
  for (const auto& n : new_doc.scenarios) {
    if (!n.commands || n.kind != catalog::ScenarioKind::Ab) continue;
    const model::ScenarioResult* o = nullptr;
    for (const auto& s : old_doc.scenarios)
      if (s.name == n.name && s.profile == n.profile) o = &s;
    for (const auto& [variant, argv] : *n.commands) {
      const std::string now = command_line(argv);
      const std::string then =
          o && o->commands && o->commands->count(variant) ? command_line(o->commands->at(variant)) : "-";
      rows.push_back({n.name, variant, then, now});
      if (o && then != now)
        warnings.push_back(n.name + "/" + variant + " ran '" + then + "' in the old run and '" + now +
                           "' in the new one: its rows compare different commands");
    }
  }
  if (rows.size() > 1) {
    out << "Commands:\n";
    print_text_table(out, rows, true);
    out << "\n";
  }
  return warnings;
}

}  // namespace perfgate::exports
