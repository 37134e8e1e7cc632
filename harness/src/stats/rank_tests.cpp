#include "stats/rank_tests.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace perfgate::stats {

namespace {

void require_finite(const std::vector<double>& values, const char* what) {
  for (double v : values) {
    if (!std::isfinite(v)) throw std::invalid_argument(std::string(what) + ": non-finite value");
  }
}

struct Ranking {
  // Twice the midrank of each value, in input order. Midranks are multiples of 1/2, so
  // doubling makes every rank sum an integer the exact distributions can index.
  std::vector<long long> doubled;
  std::vector<std::size_t> tie_sizes;  // sizes of the groups of equal values larger than 1
};

// Under H0 each rank carries + or - with probability 1/2 independently. prob[s] is P(2 W+ = s)
// for the doubled ranks; for n <= 50 every entry is k / 2^n with k < 2^53, so it is exact in a
// double.
std::vector<double> signed_rank_null(const std::vector<long long>& doubled, long long total2) {
  std::vector<double> prob(static_cast<std::size_t>(total2) + 1, 0.0);
  prob[0] = 1.0;
  long long reach = 0;
  for (long long r : doubled) {
    reach += r;
    for (long long s = reach; s >= 0; --s) {
      const double with = s >= r ? prob[static_cast<std::size_t>(s - r)] : 0.0;
      prob[static_cast<std::size_t>(s)] = 0.5 * (prob[static_cast<std::size_t>(s)] + with);
    }
  }
  return prob;
}

// Ties are exact equality, as in R and SciPy: a tolerance would make the test depend on the
// scale of the metric.
Ranking doubled_midranks(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  Ranking r;
  r.doubled.assign(n, 0);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && values[order[j + 1]] == values[order[i]]) ++j;
    // Positions i..j hold ranks i+1..j+1; twice their mean is i + j + 2.
    const auto twice_midrank = static_cast<long long>(i + j + 2);
    for (std::size_t k = i; k <= j; ++k) r.doubled[order[k]] = twice_midrank;
    if (j > i) r.tie_sizes.push_back(j - i + 1);
    i = j + 1;
  }
  return r;
}

double tie_term(const std::vector<std::size_t>& tie_sizes) {
  double sum = 0.0;
  for (std::size_t t : tie_sizes) {
    const auto td = static_cast<double>(t);
    sum += td * td * td - td;
  }
  return sum;
}

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double two_sided(double p_le, double p_ge) { return std::min(1.0, 2.0 * std::min(p_le, p_ge)); }

// Two-sided p of an observed statistic s under N(mean, var), with the 0.5 continuity correction
// applied to each tail.
double normal_two_sided(double s, double mean, double var) {
  if (!(var > 0.0)) return 1.0;  // no spread: every arrangement gives the same statistic
  const double sd = std::sqrt(var);
  const double p_le = normal_cdf((s + 0.5 - mean) / sd);
  const double p_ge = normal_cdf(-(s - 0.5 - mean) / sd);
  return two_sided(p_le, p_ge);
}

// The one-sided tails P(S <= s) and P(S >= s) under the same approximation.
std::pair<double, double> normal_tails(double s, double mean, double var) {
  if (!(var > 0.0)) return {1.0, 1.0};
  const double sd = std::sqrt(var);
  return {std::min(1.0, normal_cdf((s + 0.5 - mean) / sd)), std::min(1.0, normal_cdf(-(s - 0.5 - mean) / sd))};
}

}  // namespace

TestResult wilcoxon_signed_rank(const std::vector<double>& differences) {
  require_finite(differences, "Wilcoxon signed-rank");
  std::vector<double> magnitudes;
  std::vector<bool> positive;
  for (double d : differences) {
    if (d == 0.0) continue;
    magnitudes.push_back(std::fabs(d));
    positive.push_back(d > 0.0);
  }
  const std::size_t n = magnitudes.size();
  if (n == 0) return {0.0, 1.0, "exact", 0};

  const Ranking ranks = doubled_midranks(magnitudes);
  long long w_plus2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (positive[i]) w_plus2 += ranks.doubled[i];
  }
  const auto total2 = static_cast<long long>(n * (n + 1));
  const double statistic = static_cast<double>(std::min(w_plus2, total2 - w_plus2)) / 2.0;

  if (n <= exact_max_n) {
    // Without ties the distribution depends on n alone: a sequential run tests the same n
    // at every look of every comparison, so it is computed once per thread.
    thread_local std::vector<std::vector<double>> untied;
    std::vector<double> tied;
    const std::vector<double>* prob = &tied;
    if (ranks.tie_sizes.empty()) {
      if (untied.size() <= n) untied.resize(n + 1);
      if (untied[n].empty()) untied[n] = signed_rank_null(ranks.doubled, total2);
      prob = &untied[n];
    } else {
      tied = signed_rank_null(ranks.doubled, total2);
    }
    double p_le = 0.0;
    double p_ge = 0.0;
    for (long long s = 0; s <= total2; ++s) {
      if (s <= w_plus2) p_le += (*prob)[static_cast<std::size_t>(s)];
      if (s >= w_plus2) p_ge += (*prob)[static_cast<std::size_t>(s)];
    }
    return {statistic, two_sided(p_le, p_ge), "exact", n, std::min(1.0, p_le), std::min(1.0, p_ge)};
  }

  const auto nd = static_cast<double>(n);
  const double mean = nd * (nd + 1.0) / 4.0;
  const double var = nd * (nd + 1.0) * (2.0 * nd + 1.0) / 24.0 - tie_term(ranks.tie_sizes) / 48.0;
  const double w_plus = static_cast<double>(w_plus2) / 2.0;
  const auto [p_le, p_ge] = normal_tails(w_plus, mean, var);
  return {statistic, normal_two_sided(w_plus, mean, var), "normal", n, p_le, p_ge};
}

TestResult mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.empty() || y.empty()) {
    throw std::invalid_argument("Mann-Whitney U needs at least one value in each group");
  }
  require_finite(x, "Mann-Whitney U");
  require_finite(y, "Mann-Whitney U");
  const std::size_t n1 = x.size();
  const std::size_t n2 = y.size();

  std::vector<double> pooled = x;
  pooled.insert(pooled.end(), y.begin(), y.end());
  const Ranking ranks = doubled_midranks(pooled);
  long long r1_2 = 0;
  for (std::size_t i = 0; i < n1; ++i) r1_2 += ranks.doubled[i];
  // U = R1 - n1(n1+1)/2, kept doubled until the end so ties stay exact.
  const long long u2 = r1_2 - static_cast<long long>(n1 * (n1 + 1));
  const double u = static_cast<double>(u2) / 2.0;

  if (ranks.tie_sizes.empty() && n1 <= exact_max_n && n2 <= exact_max_n) {
    // count[i][v]: orderings of i x's and j y's (j is the outer loop) with U = v. Whatever is
    // largest is either an x, which beats all j y's (adds j), or a y, which adds nothing:
    //   count(i, j, v) = count(i - 1, j, v - j) + count(i, j - 1, v).
    // Counts reach C(100, 50) ~ 1e29: fine in a double, with relative error ~1e-16.
    const std::size_t umax = n1 * n2;
    const std::size_t width = umax + 1;
    std::vector<double> prev((n1 + 1) * width, 0.0);
    std::vector<double> cur((n1 + 1) * width, 0.0);
    for (std::size_t i = 0; i <= n1; ++i) prev[i * width] = 1.0;  // j = 0: U is 0
    for (std::size_t j = 1; j <= n2; ++j) {
      std::fill(cur.begin(), cur.end(), 0.0);
      for (std::size_t i = 0; i <= n1; ++i) {
        for (std::size_t v = 0; v <= i * j; ++v) {
          double c = prev[i * width + v];
          if (i > 0 && v >= j) c += cur[(i - 1) * width + (v - j)];
          cur[i * width + v] = c;
        }
      }
      std::swap(prev, cur);
    }
    const double* dist = &prev[n1 * width];
    const auto observed = static_cast<std::size_t>(u2 / 2);
    double total = 0.0;
    double le = 0.0;
    double ge = 0.0;
    for (std::size_t v = 0; v <= umax; ++v) {
      total += dist[v];
      if (v <= observed) le += dist[v];
      if (v >= observed) ge += dist[v];
    }
    return {u, two_sided(le / total, ge / total), "exact", n1 + n2};
  }

  const auto a = static_cast<double>(n1);
  const auto b = static_cast<double>(n2);
  const double nn = a + b;
  const double mean = a * b / 2.0;
  const double var = a * b / 12.0 * ((nn + 1.0) - tie_term(ranks.tie_sizes) / (nn * (nn - 1.0)));
  return {u, normal_two_sided(u, mean, var), "normal", n1 + n2};
}

}  // namespace perfgate::stats
