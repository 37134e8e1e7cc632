// What a run decided, as rows for people: one per gate that decided the exit code (each
// equivalence gate — the agreement pass included —, the policy, the wall guard, each claim, the
// baseline, and any other gated comparison, such as one per benchmark), each with that gate's
// own result, then informational rows (wall and CPU time where no gate judged them) whose
// verdict is only the direction of the change ("higher", "lower"): never "worse" for a metric
// nothing gates. The terminal table (verdict_text), the step summary (github_actions) print
// these rows; JUnit and the annotations share the failure messages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::exports {

struct VerdictRow {
  std::string gate;      // "same work", "improve", "no-regress", "guard", "claim 2.5x", "baseline", "run", "not gated"
  std::string metric;    // what the gate judged ("" when no metric)
  bool primary = false;  // the scenario's gated metric
  std::string before, after;  // medians with their units; baseline: the accepted and the new ratio
  std::string ratio;          // "0.249x [0.228, 0.276]"
  std::string detectable;     // "16.8%", "too few rounds"
  std::string verdict;        // a few words: "better", "no change", "within ±18.4%", "missed"
  std::string reason;         // why, for a failure: "different output: first differing line 1: …"
  // The deciding gate's outcome; none on an informational row. run_error: the row of a
  // scenario that could not run (its own mark, ERROR).
  std::optional<model::GateOutcome> outcome;
  bool run_error = false;
  bool informational() const { return !outcome && !run_error; }
};

std::vector<VerdictRow> verdict_rows(const model::ScenarioResult& s);

// "PASS", "FAIL", "CANNOT TELL", "n/a", "ERROR", "" (informational).
std::string result_word(const VerdictRow& r);
// "✅ pass", "❌ FAIL", "⚠️ cannot tell", "➖ n/a", "❌ error", "": the same result in GitHub's summary.
std::string result_mark(const VerdictRow& r);

// "<kind> gate failed: <detail>", the prefix said once even where the detail carries it, and
// the detail without it.
std::string failure_message(const model::GateResult& g);
std::string failure_detail(const model::GateResult& g);

// The scenario's error is the failed equivalence gate's own failure (exit 3): said once, by the gate.
bool error_is_a_gate(const model::ScenarioResult& s);

}  // namespace perfgate::exports
