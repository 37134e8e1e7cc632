#include "export/compare_markdown.hpp"

#include <cstdio>
#include <sstream>

#include "common/errors.hpp"
#include "common/number_format.hpp"
#include "export/compare_text.hpp"

namespace perfgate::exports {
namespace {

std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

std::string markdown_headline(const gate::GateDecision& verdict) {
  const char* mark = verdict.exit_code == kExitOk ? "✅" : verdict.exit_code == kExitPerformance ? "❌" : "⚠️";
  return std::string("## perfgate compare: ") + mark + " " + verdict.headline + "\n\n";
}

std::string markdown_runs(const gate::RunDiff& d, const std::string& old_file, const std::string& new_file) {
  std::ostringstream md;
  md << "| run | file | commit | outcome | host |\n|---|---|---|---|---|\n"
     << "| old | `" << cell(old_file) << "` | `" << commit_text(d.old_commit, d.old_dirty) << "` | "
     << cell(outcome_text(d.old_outcome)) << " | `" << d.old_host << "` |\n"
     << "| new | `" << cell(new_file) << "` | `" << commit_text(d.new_commit, d.new_dirty) << "` | "
     << cell(outcome_text(d.new_outcome)) << " | `" << d.new_host << "` |\n\n";
  if (!d.same_host) md << "Different hosts: absolute figures compare machines as much as code.\n\n";
  return md.str();
}

const gate::GateRow* gate_row_of(const gate::RunDiff& d, std::size_t row) {
  for (const auto& g : d.gate)
    if (g.row == row) return &g;
  return nullptr;
}

std::string markdown_gate_cells(const gate::GateRow* g) {
  if (!g) return " | |";
  const std::string mark = g->verdict == stats::Verdict::Worse    ? "❌ worse"
                           : g->verdict == stats::Verdict::Better ? "✅ better"
                                                                  : "✅ ~";
  char p[32];
  std::snprintf(p, sizeof p, "%.3g", g->p_adjusted);
  return " " + judged_change(*g) + " " + interval(g->ci) + ", p " + p + " | " + mark + " |";
}

std::string markdown_rows(const gate::RunDiff& d) {
  std::ostringstream md;
  md << "| scenario | variant | metric | old | new | change | interval | p (Holm) | verdict | drift-corrected | gate "
        "|\n"
     << "|---|---|---|---:|---:|---:|---|---:|---|---|---|\n";
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    const auto& r = d.rows[i];
    char p[32];
    std::snprintf(p, sizeof p, "%.3g", r.p_adjusted);
    md << "| " << cell(r.scenario + (r.profile == "quick" ? "" : " (" + r.profile + ")")) << " | " << cell(r.variant)
       << " | " << cell(r.metric) << " | " << format_quantity(r.old_median, r.unit) << " | "
       << format_quantity(r.new_median, r.unit) << " | " << pct(r.change) << " | " << interval(r.ci) << " | " << p
       << " | " << (r.verdict == stats::Verdict::CannotTell ? "~" : "**" + row_verdict(d, r) + "**") << " |"
       << markdown_gate_cells(gate_row_of(d, i)) << "\n";
  }
  return md.str();
}

std::string markdown_method(const gate::RunDiff& d, const gate::DiffOptions& options) {
  char buf[600];
  std::snprintf(buf, sizeof buf,
                "\nThe gate judges %s: drift-corrected change = (new AFTER / old AFTER) ÷ (new BEFORE / old BEFORE), "
                "so machine drift between the runs cancels; a regression is significant (Mann–Whitney on the "
                "per-round AFTER/BEFORE ratios, Holm over the %zu gated rows, α = %g) with its 95%% interval "
                "wholly beyond the ±%g%% noise band. Other rows: Holm over all %zu rows; ~ is no significant "
                "change.\n",
                variants_gated(options).c_str(), d.gate.size(), options.alpha, options.noise * 100, d.rows.size());
  return buf;
}

}  // namespace

std::string compare_markdown(const gate::RunDiff& d, const std::string& old_file, const std::string& new_file,
                             const gate::DiffOptions& options, const gate::GateDecision& decision) {
  std::string md = markdown_headline(decision) + markdown_runs(d, old_file, new_file);
  if (!d.rows.empty()) md += markdown_rows(d) + markdown_method(d, options);
  for (const auto& s : d.only_old) md += "\nOnly in old: `" + cell(s) + "`";
  for (const auto& s : d.only_new) md += "\nOnly in new: `" + cell(s) + "`";
  return md + "\n";
}

}  // namespace perfgate::exports
