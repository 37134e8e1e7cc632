#include "export/verdict_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>

#include "common/errors.hpp"
#include "common/number_format.hpp"
#include "gate/policy.hpp"

namespace perfgate::exports {
namespace {

std::string strip_prefix(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
}

// The metric a gate judged: its own field, else (a file written before gates named it) read
// from its name "POLICY on METRIC" / "no regress on METRIC" / "baseline on METRIC".
std::string metric_of(const model::GateResult& g, const model::ScenarioResult& s) {
  if (!g.metric.empty()) return g.metric;
  if (g.kind == model::GateKind::Policy || g.kind == model::GateKind::Guard || g.kind == model::GateKind::Baseline) {
    const auto on = g.name.rfind(" on ");
    return on == std::string::npos ? s.primary_metric : g.name.substr(on + 4);
  }
  if (g.kind == model::GateKind::Claim)
    for (const auto& c : s.comparisons)
      if (c.variant == "after" && g.name.find(c.metric) != std::string::npos) return c.metric;
  return "";
}

// The comparison a gate of `metric` judged: a gated one first (a benchmark's), else after/before.
const model::Comparison* comparison_of(const model::ScenarioResult& s, const std::string& metric) {
  for (const auto& c : s.comparisons)
    if (c.gated && c.metric == metric) return &c;
  for (const auto& c : s.comparisons)
    if (c.variant == "after" && c.baseline == "before" && c.metric == metric) return &c;
  return nullptr;
}

std::string median(const model::ScenarioResult& s, const std::string& variant, const model::Comparison& c) {
  const auto v = s.summaries.find(variant);
  if (v == s.summaries.end()) return "-";
  const auto m = v->second.find(c.metric);
  return m == v->second.end() ? "-"
                              : format_quantity(m->second.s.median, m->second.unit.empty() ? c.unit : m->second.unit);
}

// Fills the figure columns of a row from its comparison.
// `undecided`: the row's own answer is cannot tell, so it says how many rounds would decide.
// `decided`: the row is the comparison's verdict, shown with the interval it was decided on.
void figures(VerdictRow& row, const model::ScenarioResult& s, const model::Comparison& c, bool undecided,
             bool decided = false) {
  row.before = median(s, c.baseline, c);
  row.after = median(s, c.variant, c);
  row.ratio = !std::isfinite(c.r.ratio) ? "-" : decided ? gate::format_decided(c) : gate::format_ratio(c);
  if (c.detectable_effect && std::isfinite(*c.detectable_effect))
    row.detectable = format_percent(*c.detectable_effect);
  else
    row.detectable = c.r.log_scale ? "too few rounds" : "-";
  if (undecided && c.rounds_to_decide)
    row.detectable += ", ~" + std::to_string(*c.rounds_to_decide) + " rounds to decide";
}

std::string verdict_word(stats::Verdict v) { return std::string(name_of(v)); }

// An ungated comparison says which way the figure moved, never whether that is good.
std::string direction(const model::Comparison& c) {
  if (c.verdict == stats::Verdict::Same || c.verdict == stats::Verdict::NotWorse) return verdict_word(c.verdict);
  if (c.verdict == stats::Verdict::CannotTell) return "cannot tell";
  const bool lower_is_better = c.better != Better::Higher;
  return (c.verdict == stats::Verdict::Better) == lower_is_better ? "lower" : "higher";
}

// What a failed equivalence gate found, in the words a reader looks for.
std::string different(const model::GateResult& g) {
  return g.name == "same work"         ? "different output"
         : g.name == "same responses"  ? "different responses"
         : g.name == "same benchmarks" ? "different benchmarks"
                                       : "different answers";
}

std::string difference(const model::GateResult& g) {
  const std::string what = different(g);
  std::string detail = strip_prefix(g.detail, "equivalence gate failed: ");
  // "media_parity agreement pass (48 requests, before vs after): 2 disagree ...": the gate's name says the first part.
  if (const auto pass = detail.find(" agreement pass ("); pass != std::string::npos)
    if (const auto colon = detail.find("): ", pass); colon != std::string::npos) detail = detail.substr(colon + 3);
  const auto first = detail.find("first differing");
  return what + ": " + (first == std::string::npos ? detail : detail.substr(first));
}

// A gate's outcome in its row's words: how it passed or failed, else "cannot tell" or "not decided".
std::string outcome_word(model::GateOutcome o, const std::string& passed, const std::string& failed) {
  if (o == model::GateOutcome::Passed) return passed;
  if (o == model::GateOutcome::Failed) return failed;
  return o == model::GateOutcome::CannotTell ? "cannot tell" : "not decided";
}

VerdictRow gate_row(const model::GateResult& g, const model::ScenarioResult& s) {
  VerdictRow row;
  row.outcome = g.outcome;
  if (g.failed() || g.cannot_tell()) row.reason = failure_detail(g);
  if (g.kind == model::GateKind::Equivalence) {
    row.gate = g.name;
    row.verdict = g.passed() ? "equal" : g.failed() ? different(g) : "not compared";
    if (g.failed()) row.reason = difference(g);
    return row;
  }
  row.metric = metric_of(g, s);
  const model::Comparison* c = row.metric.empty() ? nullptr : comparison_of(s, row.metric);
  // Every benchmark a Google Benchmark scenario gates is starred, not only the first.
  row.primary = row.metric == s.primary_metric || (g.kind == model::GateKind::Policy && c && c->gated);
  if (c)
    figures(row, s, *c, g.kind == model::GateKind::Policy ? c->verdict == stats::Verdict::CannotTell : g.cannot_tell(),
            g.kind == model::GateKind::Policy);
  if (g.kind == model::GateKind::Policy) {
    row.gate = s.policy ? std::string(name_of(*s.policy)) : "policy";
    row.verdict = c ? verdict_word(c->verdict) : "not measured";
  } else if (g.kind == model::GateKind::Guard) {
    row.gate = "guard";
    const std::string band = g.band ? format_percent(*g.band) : "its band";
    row.verdict = outcome_word(g.outcome, "within +" + band, "beyond +" + band);
  } else if (g.kind == model::GateKind::Claim) {
    row.gate = g.factor ? "claim " + format_number(*g.factor) + "x" : "claim";
    if (row.metric.empty()) row.metric = strip_prefix(g.name, "statements per request on ");
    row.verdict = outcome_word(g.outcome, "met", "missed");
  } else {
    row.gate = std::string(name_of(g.kind));
    row.verdict = outcome_word(g.outcome, "passed", "failed");
  }
  return row;
}

void baseline_rows(std::vector<VerdictRow>& rows, const model::ScenarioResult& s) {
  for (const auto& b : s.baseline) {
    VerdictRow row;
    row.gate = "baseline";
    row.metric = b.metric;
    row.primary = b.metric == s.primary_metric;
    for (const auto& g : s.gates)
      if (g.kind == model::GateKind::Baseline && metric_of(g, s) == b.metric) {
        row.outcome = g.outcome;
        if (g.failed() || g.cannot_tell()) row.reason = failure_detail(g);
      }
    if (!row.outcome) row.outcome = model::GateOutcome::Undecided;
    // Before and after are the accepted ratio and this run's; the ratio is their change.
    row.after = format_number(b.now_ratio) + "x";
    if (b.compared) {
      row.before = format_number(b.accepted_ratio) + "x";
      row.ratio = gate::format_ratio(b.change, b.change_ci);
      row.verdict = b.verdict ? std::string(name_of(*b.verdict)) : "-";
    } else {
      row.verdict = "no comparable baseline";
    }
    rows.push_back(row);
  }
}

// How a row's result is shown: a word in the text table, a mark in GitHub's summary.
struct ResultShown {
  std::string_view word, mark;
};

ResultShown result_shown(const VerdictRow& r) {
  // In model::GateOutcome's order.
  constexpr ResultShown kByOutcome[] = {
      {"PASS", "✅ pass"}, {"FAIL", "❌ FAIL"}, {"CANNOT TELL", "⚠️ cannot tell"}, {"n/a", "➖ n/a"}};
  if (r.run_error) return {"ERROR", "❌ error"};
  if (!r.outcome) return {};
  return kByOutcome[static_cast<std::size_t>(*r.outcome)];
}

}  // namespace

std::string result_word(const VerdictRow& r) { return std::string(result_shown(r).word); }
std::string result_mark(const VerdictRow& r) { return std::string(result_shown(r).mark); }

std::string failure_detail(const model::GateResult& g) {
  return strip_prefix(g.detail, std::string(name_of(g.kind)) + " gate failed: ");
}

std::string failure_message(const model::GateResult& g) {
  return std::string(name_of(g.kind)) + (g.cannot_tell() ? " gate cannot tell: " : " gate failed: ") +
         failure_detail(g);
}

bool error_is_a_gate(const model::ScenarioResult& s) {
  return s.error && s.error->exit_code == kExitEquivalence && s.equivalence_failed();
}

std::vector<VerdictRow> verdict_rows(const model::ScenarioResult& s) {
  std::vector<VerdictRow> rows;
  std::vector<std::string> judged;  // metrics a gate row already shows
  for (const auto& g : s.gates) {
    if (g.kind == model::GateKind::Baseline) continue;  // with its figures, below
    rows.push_back(gate_row(g, s));
    if (!rows.back().metric.empty()) judged.push_back(rows.back().metric);
  }
  // A gated comparison no gate names: a run that stopped before its gates (exit 4), or a
  // benchmark of a Google Benchmark scenario whose gate does not name its metric.
  for (const auto& c : s.comparisons)
    if (c.gated && !s.equivalence_failed() && std::find(judged.begin(), judged.end(), c.metric) == judged.end()) {
      VerdictRow row;
      row.gate = "gated";
      row.metric = c.metric;
      row.primary = c.metric == s.primary_metric;
      figures(row, s, c, c.verdict == stats::Verdict::CannotTell, true);
      row.verdict = verdict_word(c.verdict);
      row.outcome = model::GateOutcome::Undecided;  // no gate decided on it (the run stopped before the gates)
      rows.push_back(row);
      judged.push_back(c.metric);
    }
  baseline_rows(rows, s);
  if (s.error && !error_is_a_gate(s)) {
    VerdictRow row;
    row.gate = "run";
    row.verdict = "could not run";
    row.reason = s.error->message;
    row.run_error = true;
    rows.push_back(row);
  }
  // Wall and CPU time where no gate judged them: which way they moved, nothing more. Not for
  // unequal work, whose figures measure nothing comparable.
  if (!s.equivalence_failed())
    for (const std::string metric : {"wall_ms", "cpu_ms"}) {
      if (std::find(judged.begin(), judged.end(), metric) != judged.end()) continue;
      for (const auto& c : s.comparisons)
        if (c.variant == "after" && c.baseline == "before" && c.metric == metric) {
          VerdictRow row;
          row.gate = "not gated";
          row.metric = metric;
          figures(row, s, c, c.verdict == stats::Verdict::CannotTell);
          row.verdict = direction(c);
          rows.push_back(row);
        }
    }
  return rows;
}

}  // namespace perfgate::exports
