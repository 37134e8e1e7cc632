#include "export/verdict_text.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "export/text_table.hpp"
#include "export/verdict_rows.hpp"

namespace perfgate::exports {
namespace {

const char* const kRed = "\033[1;31m";
const char* const kGreen = "\033[32m";
const char* const kYellow = "\033[33m";
const char* const kDim = "\033[2m";
const char* const kReset = "\033[0m";

std::string painted(const char* code, const std::string& text) { return code + text + kReset; }

}  // namespace

void print_verdict_table(std::ostream& out, const model::ResultsDoc& results, bool colour, bool fit) {
  TextRows rows = {
      {"scenario", "gate", "metric", "before", "after", "ratio [interval]", "detectable", "verdict", "result"}};
  std::vector<VerdictRow> kinds = {VerdictRow{}};
  for (const auto& s : results.scenarios) {
    const std::string& name = s.name.empty() ? std::string("?") : s.name;
    for (const auto& r : verdict_rows(s)) {
      rows.push_back({name, r.gate, r.metric + (r.primary ? " *" : ""), r.before, r.after, r.ratio, r.detectable,
                      r.verdict, result_word(r)});
      kinds.push_back(r);
    }
  }
  TableLayout layout;
  layout.max_width = fit ? kTableWidth : 0;
  layout.min_width = {10, 10, 12, 0, 0, 0, 0, 12, 0};
  // A benchmark's name is the metric (BM_TopWordsSmall:cpu_time): cut in the middle, two of them
  // read alike, so the other columns give way first, up to 32 characters.
  // Other metrics' names are cut as before, so a table without benchmarks keeps to kTableWidth.
  for (const auto& row : rows)
    if (row[2].find(':') != std::string::npos)
      layout.min_width[2] = std::max(layout.min_width[2], std::min<std::size_t>(display_width(row[2]), 32));
  if (colour)
    layout.paint = [&kinds](std::size_t row, std::size_t column, const std::string& cell) {
      const VerdictRow& r = kinds[row];
      if (row == 0) return cell;
      if (r.informational()) return painted(kDim, cell);
      if (column != 8) return cell;
      return r.outcome == model::GateOutcome::Passed                  ? painted(kGreen, cell)
             : r.outcome == model::GateOutcome::Failed || r.run_error ? painted(kRed, cell)
                                                                      : painted(kYellow, cell);
    };
  print_text_table(out, rows, true, layout);
  out << "(* the scenario's gated metric. One row per gate, with its own result; \"not gated\" rows only say which "
         "way\n"
         "   a figure moved. ratio = after/before (Hodges-Lehmann over rounds), interval its exact Walsh interval: "
         "95%,\n"
         "   or on a gated row the level its verdict was decided at (the same: the look's; a change: Holm's),\n"
         "   which follows it when not 95%;\n"
         "   the same = the interval lies within ±band; not worse (no-regress) = below +band, reaching past -band;\n"
         "   cannot tell = it reaches across the edge that would decide (exit 5); detectable = the smallest slowdown\n"
         "   the run would have flagged (80% power, noise band included); guard: how much wall time AFTER may add;\n"
         "   baseline: before = the accepted ratio, after = this run's, ratio = their change)\n";
  for (const auto& s : results.scenarios) {
    // `ab`'s chosen metric: which, and why (only where a performance gate judged it).
    bool judged = false;
    for (const auto& g : s.gates) judged = judged || g.kind == model::GateKind::Policy;
    if (s.metric_choice && judged)
      out << wrap_text("(" + s.name + ": gated " + s.metric_choice->metric + " — " + s.metric_choice->why + ")",
                       kTableWidth, "   ");
    // What the run warns about beside its verdicts (a benchmark one binary lacks, CPU scaling).
    for (const auto& note : s.notes)
      if (note.rfind("warning: ", 0) == 0) out << wrap_text("(" + s.name + ": " + note + ")", kTableWidth, "   ");
    // Absolute figures moved on the baseline's own host: said, not gated.
    for (const auto& b : s.baseline)
      if (b.compared && b.absolute_compared && b.absolute_verdict == stats::Verdict::Worse)
        out << wrap_text(
            "(" + s.name + ": " + b.metric + " absolute figure worse than the baseline's on the same host: not gated)",
            kTableWidth, "   ");
  }
}

}  // namespace perfgate::exports
