#include "gate/run_diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <random>

#include "common/errors.hpp"
#include "gate/scenario_stats.hpp"
#include "perfgate/enum_names.hpp"
#include "perfgate/percentile.hpp"
#include "stats/multiple.hpp"
#include "stats/rank_tests.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

namespace perfgate::gate {

using json = nlohmann::json;

namespace {

// A zero median has no relative spread; compare shows 0 for it.
double spread_of(const stats::Summary& s) { return std::isnan(s.spread) ? 0 : s.spread; }

double ratio_of(double numerator, double denominator) {
  return denominator == 0 ? (numerator == 0 ? 1.0 : INFINITY) : numerator / denominator;
}

using Indices = std::vector<std::size_t>;
using TwoRunStatistic = std::function<double(const Indices& old_indices, const Indices& new_indices)>;

double median_at(const std::vector<double>& values, const Indices& indices) {
  std::vector<double> picked;
  picked.reserve(indices.size());
  for (std::size_t i : indices) picked.push_back(values[i]);
  return stats::median(std::move(picked));
}

Indices all_indices(std::size_t n) {
  Indices out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

// Percentile bootstrap over two runs that are not paired with each other: every resample
// redraws each run's n_old (n_new) indices from that run alone. stats::bootstrap_ci draws one
// index set, which would pair the runs. (The draws are the ones compare has always made, so a
// row's interval is the same as before the gate existed.)
std::array<double, 2> two_run_interval(std::size_t n_old, std::size_t n_new, std::uint64_t seed, int resamples,
                                       const TwoRunStatistic& statistic) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> draw_old(0, n_old - 1), draw_new(0, n_new - 1);
  Indices old_indices(n_old), new_indices(n_new);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    for (auto& i : old_indices) i = draw_old(rng);
    for (auto& i : new_indices) i = draw_new(rng);
    values.push_back(statistic(old_indices, new_indices));
  }
  std::sort(values.begin(), values.end());
  return {perfgate::percentile_sorted(values, 0.025), perfgate::percentile_sorted(values, 0.975)};
}

// Two runs compared: the interval-only rule (stats::decide_interval) — changed when significant
// after correction and wholly outside the noise band, the same when wholly inside it.
stats::Verdict verdict_of(const std::array<double, 2>& ci, double p_adjusted, Better better, const DiffOptions& opt) {
  stats::PairedRatio interval;
  interval.ci = {ci[0], ci[1]};
  return stats::decide_interval(interval, p_adjusted, opt.alpha, opt.noise, better, stats::SameMeans::Equivalent);
}

std::vector<std::string> metrics_to_show(const model::ScenarioResult& s, const DiffOptions& opt) {
  if (opt.all_metrics) {
    std::set<std::string> all;
    for (const auto& [v, ms] : s.summaries)
      for (const auto& [m, _] : ms) all.insert(m);
    return {all.begin(), all.end()};
  }
  if (!opt.metrics.empty()) return {opt.metrics.begin(), opt.metrics.end()};
  std::vector<std::string> metrics = {s.primary_metric};
  for (const char* m : {"wall_ms", "cpu_ms"})
    if (m != s.primary_metric) metrics.push_back(m);
  return metrics;
}

// Null when either run measured the metric fewer than twice: no interval, no test.
std::optional<DiffRow> diff_row(const model::ScenarioResult& so, const model::ScenarioResult& sn,
                                const std::string& variant, const std::string& metric, std::uint64_t seed,
                                int resamples) {
  const auto a = so.measured_values(variant, metric), b = sn.measured_values(variant, metric);
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  DiffRow r;
  r.scenario = so.name;
  r.profile = so.profile;
  r.variant = variant;
  r.metric = metric;
  r.gated = metric == so.primary_metric;
  if (auto v = so.summaries.find(variant); v != so.summaries.end())
    if (auto m = v->second.find(metric); m != v->second.end()) {
      r.unit = m->second.unit;
      r.better = m->second.better;
    }
  r.n_old = a.size();
  r.n_new = b.size();
  const auto old_summary = stats::summarize(a), new_summary = stats::summarize(b);
  r.old_median = old_summary.median;
  r.new_median = new_summary.median;
  r.old_spread = spread_of(old_summary);
  r.new_spread = spread_of(new_summary);
  r.change = ratio_of(r.new_median, r.old_median);
  r.ci = two_run_interval(a.size(), b.size(), seed, resamples, [&](const Indices& io, const Indices& in) {
    return ratio_of(median_at(b, in), median_at(a, io));
  });
  r.p = stats::mann_whitney_u(a, b).p_value;
  return r;
}

// Holm over `family` alone (the rows shown, or the gate's rows: each family its own), then each
// change's verdict at its adjusted p; `better_of(i)`: the direction of family[i]'s metric.
template <typename Change>
void decide_family(std::vector<Change>& family, const std::function<Better(std::size_t)>& better_of,
                   const DiffOptions& opt) {
  std::vector<double> p;
  for (const TwoRunChange& c : family) p.push_back(c.p);
  const auto adjusted = stats::holm(p);
  for (std::size_t i = 0; i < family.size(); ++i) {
    family[i].p_adjusted = adjusted[i];
    family[i].verdict = verdict_of(family[i].ci, adjusted[i], better_of(i), opt);
  }
}

void decide_rows(RunDiff& d, const DiffOptions& opt) {
  decide_family(
      d.rows, [&](std::size_t i) { return d.rows[i].better; }, opt);
}

// Geometric means per metric and variant, over scenarios where both medians are positive.
std::vector<GeoMean> geomeans_of(const std::vector<DiffRow>& rows) {
  std::map<std::pair<std::string, std::string>, GeoMean> geo;
  std::map<std::pair<std::string, std::string>, std::array<double, 2>> logs;
  for (const auto& r : rows) {
    if (!(r.old_median > 0 && r.new_median > 0)) continue;
    auto key = std::make_pair(r.metric, r.variant);
    auto& g = geo[key];
    g.metric = r.metric;
    g.variant = r.variant;
    ++g.count;
    logs[key][0] += std::log(r.old_median);
    logs[key][1] += std::log(r.new_median);
  }
  std::vector<GeoMean> out;
  for (auto& [key, g] : geo) {
    g.old_value = std::exp(logs[key][0] / static_cast<double>(g.count));
    g.new_value = std::exp(logs[key][1] / static_cast<double>(g.count));
    g.change = g.new_value / g.old_value;
    out.push_back(g);
  }
  return out;
}

// A gated variant's and its reference's values of one metric, over the rounds that measured
// both: a round's two values share whatever the machine was doing then.
struct PairedRounds {
  std::vector<double> gated, reference;
  std::size_t size() const { return gated.size(); }
  bool positive() const {
    auto pos = [](double v) { return v > 0; };
    return std::all_of(gated.begin(), gated.end(), pos) && std::all_of(reference.begin(), reference.end(), pos);
  }
  double within_run_ratio(const Indices& rounds) const {
    return median_at(gated, rounds) / median_at(reference, rounds);
  }
  std::vector<double> log_ratios() const {
    std::vector<double> out;
    for (std::size_t i = 0; i < size(); ++i) out.push_back(std::log(gated[i] / reference[i]));
    return out;
  }
};

PairedRounds paired_rounds(const model::ScenarioResult& s, const std::string& variant, const std::string& reference,
                           const std::string& metric) {
  std::map<int, double> gated_by_round, reference_by_round;
  for (const auto& x : s.samples) {
    if (x.warmup || (x.variant != variant && x.variant != reference)) continue;
    auto m = x.metrics.find(metric);
    if (m == x.metrics.end()) continue;
    (x.variant == variant ? gated_by_round : reference_by_round)[x.round] = m->second.value;
  }
  PairedRounds out;
  for (const auto& [round, value] : gated_by_round)
    if (auto ref = reference_by_round.find(round); ref != reference_by_round.end()) {
      out.gated.push_back(value);
      out.reference.push_back(ref->second);
    }
  return out;
}

std::optional<std::size_t> find_row(const std::vector<DiffRow>& rows, const DiffRow& like, const std::string& variant) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].scenario == like.scenario && rows[i].profile == like.profile && rows[i].metric == like.metric &&
        rows[i].variant == variant)
      return i;
  return std::nullopt;
}

GateRow judged_raw(GateRow g, const DiffRow& r, const std::string& why) {
  g.drift_corrected = false;
  g.basis = why;
  static_cast<TwoRunChange&>(g) = r;  // its p_adjusted and verdict are the gate's own, decided after
  return g;
}

// (new AFTER / new BEFORE) / (old AFTER / old BEFORE) = AFTER's change / BEFORE's change; the
// test asks whether the per-round AFTER/BEFORE ratios moved between the runs.
GateRow judged_against_drift(GateRow g, const PairedRounds& po, const PairedRounds& pn, const std::string& reference,
                             std::uint64_t seed, int resamples) {
  g.drift_corrected = true;
  g.basis = "corrected by " + reference;
  g.n_old = po.size();
  g.n_new = pn.size();
  g.change = pn.within_run_ratio(all_indices(pn.size())) / po.within_run_ratio(all_indices(po.size()));
  g.ci = two_run_interval(po.size(), pn.size(), seed, resamples, [&](const Indices& io, const Indices& in) {
    return pn.within_run_ratio(in) / po.within_run_ratio(io);
  });
  g.p = stats::mann_whitney_u(po.log_ratios(), pn.log_ratios()).p_value;
  return g;
}

GateRow gate_row(const model::ScenarioResult& so, const model::ScenarioResult& sn, const std::vector<DiffRow>& rows,
                 std::size_t index, std::uint64_t seed, int resamples) {
  GateRow g;
  g.row = index;
  const DiffRow& r = rows[index];
  const auto reference = drift_reference(so, r.variant);
  if (!reference) return judged_raw(g, r, "no reference variant to correct by");
  g.reference = find_row(rows, r, *reference);
  if (!g.reference) return judged_raw(g, r, *reference + " not measured by both runs");
  const auto po = paired_rounds(so, r.variant, *reference, r.metric);
  const auto pn = paired_rounds(sn, r.variant, *reference, r.metric);
  if (po.size() < 2 || pn.size() < 2) return judged_raw(g, r, "fewer than 2 rounds measured both variants");
  // A ratio per round needs positive values; a count of 0 (no allocations) is judged as measured.
  if (!po.positive() || !pn.positive()) return judged_raw(g, r, "a value is 0, no ratio per round");
  return judged_against_drift(g, po, pn, *reference, seed, resamples);
}

bool is_gated(const model::ScenarioResult& s, const std::string& variant, const DiffOptions& opt) {
  const auto variants = gated_variants(s, opt.gate_variants);
  return std::find(variants.begin(), variants.end(), variant) != variants.end();
}

std::vector<GateRow> judge_gate(const model::ResultsDoc& o, const model::ResultsDoc& n,
                                const std::vector<DiffRow>& rows, const DiffOptions& opt) {
  std::vector<GateRow> gate;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto *so = o.find(rows[i].scenario, rows[i].profile), *sn = n.find(rows[i].scenario, rows[i].profile);
    if (!is_gated(*so, rows[i].variant, opt)) continue;
    // Seeds past the rows' own: each interval its own bootstrap stream.
    gate.push_back(gate_row(*so, *sn, rows, i, opt.seed + rows.size() + gate.size(), opt.resamples));
  }
  decide_family(
      gate, [&](std::size_t i) { return rows[gate[i].row].better; }, opt);
  return gate;
}

RunOutcome outcome_of(const model::ResultsDoc& d) {
  return {std::string(name_of(d.outcome.status)), d.outcome.message, d.outcome.exit_code};
}

}  // namespace

// benchstat's "~" is perfgate's "cannot tell": the interval reaches across an edge of the band.
std::string compare_word(stats::Verdict v) {
  constexpr auto kWords = in_declaration_order<stats::Verdict>({"better", "worse", "same", "not worse", "~"});
  return std::string(name_in(kWords, v));
}

int RunDiff::regressions() const {
  return static_cast<int>(
      std::count_if(gate.begin(), gate.end(), [](const GateRow& g) { return g.verdict == stats::Verdict::Worse; }));
}

std::vector<std::string> gated_variants(const model::ScenarioResult& s, const std::set<std::string>& named) {
  const auto& all = s.variant_names;
  if (!named.empty()) {
    std::vector<std::string> out;
    for (const auto& v : all)
      if (named.count(v)) out.push_back(v);
    return out;
  }
  if (std::find(all.begin(), all.end(), "after") != all.end()) return {"after"};
  if (all.size() == 1) return all;
  return {};
}

std::optional<std::string> drift_reference(const model::ScenarioResult& s, const std::string& variant) {
  for (const auto& v : s.variants)
    if (v.name == variant) return v.compare_to;
  // A file without variant details: BEFORE is every scenario's reference.
  const auto& all = s.variant_names;
  if (variant != "before" && std::find(all.begin(), all.end(), "before") != all.end()) return "before";
  return std::nullopt;
}

RunDiff diff_runs(const model::ResultsDoc& o, const model::ResultsDoc& n, const DiffOptions& opt) {
  RunDiff d;
  d.old_host = o.host.fingerprint;
  d.new_host = n.host.fingerprint;
  d.same_host = d.old_host == d.new_host;
  d.old_commit = o.run.commit;
  d.new_commit = n.run.commit;
  d.old_dirty = o.run.dirty;
  d.new_dirty = n.run.dirty;
  d.old_outcome = outcome_of(o);
  d.new_outcome = outcome_of(n);
  for (const auto& so : o.scenarios) {
    const model::ScenarioResult* sn = n.find(so.name, so.profile);
    if (!sn) {
      d.only_old.push_back(so.name + "/" + so.profile);
      continue;
    }
    ++d.common_scenarios;
    for (const auto& variant : so.variant_names)
      for (const auto& metric : metrics_to_show(so, opt))
        if (auto r = diff_row(so, *sn, variant, metric, opt.seed + d.rows.size(), opt.resamples)) d.rows.push_back(*r);
  }
  for (const auto& sn : n.scenarios)
    if (!o.find(sn.name, sn.profile)) d.only_new.push_back(sn.name + "/" + sn.profile);
  decide_rows(d, opt);
  d.geomeans = geomeans_of(d.rows);
  d.gate = judge_gate(o, n, d.rows, opt);
  return d;
}

std::string nothing_comparable(const RunDiff& d, const DiffOptions& opt) {
  if (d.common_scenarios == 0) return "no scenario (and profile) is in both runs";
  if (d.rows.empty())
    return "no variant and metric was measured at least twice by both runs (a run with no samples, or "
           "scenarios that did not run?)";
  if (d.gate.empty()) {
    if (opt.gate_variants.empty())
      return "no scenario has an \"after\" variant (or a single one) measured by both runs";
    std::string names;
    for (const auto& v : opt.gate_variants) names += (names.empty() ? "" : ", ") + v;
    return "no row of --gate-variant " + names + " was measured by both runs";
  }
  return "";
}

GateDecision decide_gate(const RunDiff& d, const DiffOptions& o, const std::string& not_gateable) {
  // A run that errored says more about why nothing compares than the empty table does.
  if (!not_gateable.empty()) return {kExitUsage, "cannot gate: " + not_gateable};
  if (auto why = nothing_comparable(d, o); !why.empty()) return {kExitUsage, "nothing comparable: " + why};
  if (const int n = d.regressions())
    return {kExitPerformance,
            std::to_string(n) + " significant regression" + (n > 1 ? "s" : "") + " beyond the noise band"};
  char buf[160];
  std::snprintf(buf, sizeof buf, "passed: no gated row regressed beyond ±%g%% (%zu rows, Holm at alpha %g)",
                o.noise * 100, d.gate.size(), o.alpha);
  return {kExitOk, buf};
}

json to_json(const RunDiff& d) {
  auto fin = [](double v) { return std::isfinite(v) ? json(v) : json(); };
  auto change_of = [&](const TwoRunChange& c) {
    return json{{"n_old", c.n_old},
                {"n_new", c.n_new},
                {"change", fin(c.change)},
                {"ci", {fin(c.ci[0]), fin(c.ci[1])}},
                {"p_mann_whitney", c.p},
                {"p_adjusted", c.p_adjusted},
                {"verdict", compare_word(c.verdict)}};
  };
  json rows = json::array();
  for (const auto& r : d.rows) {
    json row = change_of(r);
    row.update({{"scenario", r.scenario},
                {"profile", r.profile},
                {"variant", r.variant},
                {"metric", r.metric},
                {"unit", r.unit},
                {"better", name_of(r.better)},
                {"gated", r.gated},
                {"old_median", r.old_median},
                {"new_median", r.new_median}});
    rows.push_back(row);
  }
  json geo = json::array();
  for (const auto& g : d.geomeans)
    geo.push_back({{"metric", g.metric},
                   {"variant", g.variant},
                   {"scenarios", g.count},
                   {"old", g.old_value},
                   {"new", g.new_value},
                   {"change", g.change}});
  json gate = json::array();
  for (const auto& g : d.gate) {
    json row = change_of(g);
    row.update({{"row", g.row},
                {"reference_row", g.reference ? json(*g.reference) : json()},
                {"drift_corrected", g.drift_corrected},
                {"basis", g.basis}});
    gate.push_back(row);
  }
  auto outcome = [](const RunOutcome& x) {
    return json{{"status", x.status}, {"exit_code", x.exit_code}, {"message", x.message}};
  };
  return {{"rows", rows},
          {"geomeans", geo},
          {"gate", {{"rows", gate}, {"regressions", d.regressions()}}},
          {"same_host", d.same_host},
          {"old_host", d.old_host},
          {"new_host", d.new_host},
          {"old_commit", d.old_commit},
          {"new_commit", d.new_commit},
          {"old_dirty", d.old_dirty},
          {"new_dirty", d.new_dirty},
          {"old_outcome", outcome(d.old_outcome)},
          {"new_outcome", outcome(d.new_outcome)},
          {"only_old", d.only_old},
          {"only_new", d.only_new}};
}

}  // namespace perfgate::gate
