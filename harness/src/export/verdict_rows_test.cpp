// The verdict table and the step summary print every figure with its unit, scaled (ns to ms,
// bytes/s to MiB/s, counts with separators), and fit 120 columns.
#include "export/verdict_rows.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "export/github_actions.hpp"
#include "export/text_table.hpp"
#include "export/verdict_text.hpp"

using namespace perfgate;

namespace {

void measured(model::ScenarioResult& s, const std::string& metric, const std::string& unit, Better better,
              double before, double after, bool gated) {
  s.summaries["before"][metric].s.median = before;
  s.summaries["before"][metric].unit = unit;
  s.summaries["after"][metric].s.median = after;
  s.summaries["after"][metric].unit = unit;
  model::Comparison c;
  c.variant = "after";
  c.baseline = "before";
  c.metric = metric;
  c.unit = unit;
  c.better = better;
  c.gated = gated;
  c.r.ratio = after / before;
  c.r.ci = {c.r.ratio * 0.99, c.r.ratio * 1.01};
  c.r.log_scale = true;
  c.detectable_effect = 0.05;
  c.verdict = after < before ? stats::Verdict::Better : stats::Verdict::Worse;
  s.comparisons.push_back(c);
}

model::GateResult gate(model::GateKind kind, const std::string& name, const std::string& metric, bool passed) {
  model::GateResult g{kind, name, model::passed_if(passed), "detail of " + name};
  g.metric = metric;
  return g;
}

model::ResultsDoc a_benchmark_run() {
  model::ScenarioResult s;
  s.name = "wordfreq";
  s.profile = "quick";
  s.policy = catalog::Policy::Improve;
  s.primary_metric = "cpu_time";
  measured(s, "cpu_time", "ns", Better::Lower, 19813802, 9906901, true);
  measured(s, "bytes_per_second", "bytes/s", Better::Higher, 123456789, 246913578, false);
  measured(s, "instructions", "count", Better::Lower, 566112320, 283056160, false);
  measured(s, "wall_ms", "ms", Better::Lower, 1500, 1400, false);
  s.gates = {{model::GateKind::Equivalence, "same benchmarks", model::GateOutcome::Passed, "equal"},
             gate(model::GateKind::Policy, "improve on cpu_time", "cpu_time", true),
             gate(model::GateKind::Claim, "after at least 1.5x better on bytes_per_second", "bytes_per_second", true),
             gate(model::GateKind::Claim, "after at least 3x fewer instructions", "instructions", false)};
  s.gates.back().factor = 3;
  model::ResultsDoc d;
  d.scenarios.push_back(s);
  d.outcome.status = model::RunStatus::Failed;
  d.outcome.exit_code = 1;
  return d;
}

}  // namespace

TEST(VerdictTable, EveryFigureCarriesItsUnitScaled) {
  std::ostringstream out;
  exports::print_verdict_table(out, a_benchmark_run());
  const std::string t = out.str();
  EXPECT_NE(t.find("19.8 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("9.91 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("118 MiB/s"), std::string::npos) << t;
  EXPECT_NE(t.find("235 MiB/s"), std::string::npos) << t;
  EXPECT_NE(t.find("566,112,320"), std::string::npos) << t;
  EXPECT_EQ(t.find("19813802"), std::string::npos) << t;
  std::istringstream lines(t);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(exports::display_width(line), 120u) << line;
}

TEST(VerdictTable, OneRowPerGateWithItsOwnResult) {
  const auto rows = exports::verdict_rows(a_benchmark_run().scenarios[0]);
  ASSERT_EQ(rows.size(), 5u);  // equivalence, policy, two claims, wall time not gated
  EXPECT_EQ(rows[1].gate, "improve");
  EXPECT_EQ(exports::result_word(rows[1]), "PASS");
  EXPECT_EQ(rows[3].gate, "claim 3x");
  EXPECT_EQ(rows[3].metric, "instructions");
  EXPECT_EQ(exports::result_word(rows[3]), "FAIL");
  EXPECT_EQ(rows[4].gate, "not gated");
  EXPECT_EQ(rows[4].verdict, "lower");  // a direction, never "better"
  EXPECT_EQ(exports::result_word(rows[4]), "");
}

TEST(StepSummary, EveryFigureCarriesItsUnitScaled) {
  const std::string md = exports::markdown_summary(a_benchmark_run());
  for (const char* figure : {"| 19.8 ms | 9.91 ms |", "| 118 MiB/s | 235 MiB/s |", "| 566,112,320 | 283,056,160 |"})
    EXPECT_NE(md.find(figure), std::string::npos) << figure << "\n" << md;
  EXPECT_NE(md.find("| claim 3x | `instructions` | "), std::string::npos) << md;
  EXPECT_NE(md.find("detail of after at least 3x fewer instructions | ❌ FAIL |"), std::string::npos) << md;
  EXPECT_EQ(md.find("wall_ms"), std::string::npos) << md;  // informational rows stay in the terminal
}
