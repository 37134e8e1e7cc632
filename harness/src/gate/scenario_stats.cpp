#include "gate/scenario_stats.hpp"

#include <cmath>
#include <cstdio>

#include "stats/multiple.hpp"
#include "stats/power.hpp"
#include "stats/summary.hpp"
#include "stats/walsh.hpp"

namespace perfgate::gate {

using model::Comparison;
model::Summaries summarize_samples(const std::vector<run::Sample>& samples) {
  std::map<std::string, std::map<std::string, std::vector<double>>> values;
  model::Summaries out;
  for (const auto& s : samples) {
    if (s.warmup) continue;
    for (const auto& [name, m] : s.metrics) {
      values[s.variant][name].push_back(m.value);
      auto& ms = out[s.variant][name];
      ms.unit = m.unit;
      ms.better = m.better;
      ms.source = m.source;
      ms.exact = m.exact;
    }
  }
  for (auto& [variant, metrics] : values)
    for (auto& [name, v] : metrics) out[variant][name].s = stats::summarize(v);
  return out;
}

std::vector<Comparison> compare_samples(const std::vector<run::Sample>& samples, const std::vector<VariantPair>& pairs,
                                        const std::set<std::string>& gated_metrics, std::uint64_t seed,
                                        const std::optional<std::set<std::string>>& wanted) {
  // round → variant → sample
  std::map<int, std::map<std::string, const run::Sample*>> by_round;
  for (const auto& s : samples)
    if (!s.warmup) by_round[s.round][s.variant] = &s;
  std::vector<Comparison> out;
  std::uint64_t stream = 0;
  for (const auto& pair : pairs) {
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> paired;  // metric → (base, variant)
    std::map<std::string, const run::MetricValue*> meta;
    std::map<std::string, bool> exact;  // both sides declared it exact in every round
    for (const auto& [round, vs] : by_round) {
      auto a = vs.find(pair.baseline), b = vs.find(pair.variant);
      if (a == vs.end() || b == vs.end()) continue;
      for (const auto& [name, m] : b->second->metrics) {
        auto base = a->second->metrics.find(name);
        if (base == a->second->metrics.end()) continue;
        paired[name].first.push_back(base->second.value);
        paired[name].second.push_back(m.value);
        exact[name] = (meta.count(name) ? exact[name] : true) && m.exact && base->second.exact;
        meta[name] = &m;
      }
    }
    for (const auto& [name, v] : paired) {
      if (v.first.size() < 2) continue;
      // One bootstrap stream per comparison: the same seed replays every interval, whichever
      // metrics were wanted.
      const std::uint64_t comparison_seed = seed + 7919 * ++stream;
      if (wanted && !wanted->count(name)) continue;
      Comparison c;
      c.variant = pair.variant;
      c.baseline = pair.baseline;
      c.metric = name;
      c.unit = meta[name]->unit;
      c.better = meta[name]->better;
      c.exact = exact[name];
      c.gated = pair.gated && gated_metrics.count(name);
      try {
        c.r = stats::paired_ratio(v.first, v.second, comparison_seed);
      } catch (const std::invalid_argument&) {
        continue;  // a metric that can go negative has no meaningful ratio; it stays in the summaries
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<std::string> check_declared_exact(model::Summaries& summaries,
                                              std::vector<model::Comparison>& comparisons) {
  std::vector<std::string> notes;
  for (auto& [variant, metrics] : summaries)
    for (auto& [name, m] : metrics) {
      if (!m.exact || m.s.n < 2 || m.s.min == m.s.max) continue;
      char buf[160];
      std::snprintf(buf, sizeof buf, " took values from %.9g to %.9g over %zu rounds", m.s.min, m.s.max, m.s.n);
      notes.push_back("bug: " + name + " of " + variant + " is declared exact but" + buf +
                      ": the count depends on timing here (threads, sockets, a nondeterministic program) or the "
                      "declaration is wrong; compared as host-dependent in this run");
      m.exact = false;
      for (auto& c : comparisons)
        if (c.metric == name && (c.variant == variant || c.baseline == variant)) c.exact = false;
    }
  return notes;
}

namespace {

// Every decided field of one comparison at `alpha` (this look's level, already per family).
void record(Comparison& c, const stats::Decided& d, double p_adjusted, double alpha, double noise) {
  c.p_adjusted = p_adjusted;
  c.verdict = d.verdict;
  c.alpha_corrected = alpha;
  c.detectable_effect.reset();
  c.rounds_to_decide.reset();
  c.decision_ci = c.r.ci;
  c.decision_confidence = c.r.zero_spread ? 1.0 : c.r.ci_confidence;
  c.decision_alpha = 1 - d.confidence;
  if (!c.r.log_scale) return;
  if (!c.r.zero_spread && c.r.log_ratios.size() >= 2) {
    const auto e = stats::hodges_lehmann(c.r.log_ratios, d.confidence);
    c.decision_ci = stats::Interval{std::exp(e.lo), std::exp(e.hi)};
    c.decision_confidence = e.confidence;
  }
  c.detectable_effect = stats::detectable_effect(c.r.log_ratios, alpha, noise);
  if (c.verdict == stats::Verdict::CannotTell)
    c.rounds_to_decide = stats::rounds_to_decide(c.r.log_ratios, c.decision_alpha, noise, c.same_means, c.better);
}

}  // namespace

void decide_family(const std::vector<Comparison*>& family, double alpha, double noise, int decided_elsewhere) {
  std::vector<double> p;
  std::vector<stats::StateTests> tests;
  for (const auto* c : family) {
    p.push_back(c->r.p_wilcoxon);
    tests.push_back(stats::state_tests(c->r, noise, c->better, c->same_means));
  }
  // Members other shards decide count in the correction as tests that reject nothing (p = 1).
  for (int i = 0; i < decided_elsewhere; ++i) {
    p.push_back(1);
    tests.push_back({});
  }
  const std::vector<double> adjusted = stats::holm(p);
  const auto decided = stats::decide_verdicts(tests, alpha);
  for (std::size_t i = 0; i < family.size(); ++i)
    record(*family[i], decided[i], adjusted[i], alpha / static_cast<double>(p.size()), noise);
}

void decide_exploratory(const std::vector<Comparison*>& comparisons, double alpha, double noise) {
  for (auto* c : comparisons)
    record(*c, stats::decide_verdicts({stats::state_tests(c->r, noise, c->better, c->same_means)}, alpha)[0],
           c->r.p_wilcoxon, alpha, noise);
}

model::SeriesSummaries summarize_series(const std::map<std::string, nlohmann::json>& series) {
  model::SeriesSummaries out;
  for (const auto& [variant, of_variant] : series) {
    auto& summaries = out[variant];
    if (!of_variant.is_object()) continue;
    for (const auto& [name, ser] : of_variant.items()) {
      if (!ser.is_object() || !ser.contains("values") || !ser["values"].is_array()) continue;
      std::vector<double> values;
      for (const auto& x : ser["values"])
        if (x.is_number() && std::isfinite(x.get<double>())) values.push_back(x.get<double>());
      if (values.empty()) continue;
      const auto unit = ser.find("unit");
      summaries[name] = {stats::summarize(values),
                         unit != ser.end() && unit->is_string() ? unit->get<std::string>() : std::string()};
    }
  }
  return out;
}

}  // namespace perfgate::gate
