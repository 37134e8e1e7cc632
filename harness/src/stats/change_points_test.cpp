#include "stats/change_points.hpp"

#include <gtest/gtest.h>

#include <random>

using perfgate::stats::fit_steps;

namespace {

std::vector<double> noisy(std::size_t n, double level, double noise, std::mt19937_64& rng) {
  std::normal_distribution<double> d(0, noise);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(level * (1 + d(rng)));
  return v;
}

}  // namespace

TEST(ChangePoints, FindsOneInjectedStepAtItsIndex) {
  std::mt19937_64 rng(7);
  auto a = noisy(20, 1.0, 0.01, rng), b = noisy(15, 1.3, 0.01, rng);
  a.insert(a.end(), b.begin(), b.end());
  auto fit = fit_steps(a);
  ASSERT_EQ(fit.points.size(), 1u);
  EXPECT_EQ(fit.points[0].index, 20u);
  EXPECT_NEAR(fit.points[0].change, 1.3, 0.02);
}

TEST(ChangePoints, FlatNoisySeriesHasNone) {
  std::mt19937_64 rng(8);
  for (int rep = 0; rep < 20; ++rep) EXPECT_TRUE(fit_steps(noisy(40, 2.0, 0.02, rng)).points.empty()) << rep;
}

TEST(ChangePoints, TwoStepsAndASmallOneIgnored) {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(1.0 + (i % 2) * 0.002);
  for (int i = 0; i < 10; ++i) v.push_back(1.02 + (i % 2) * 0.002);  // 2%: below min_step
  for (int i = 0; i < 10; ++i) v.push_back(0.5 + (i % 2) * 0.001);
  auto fit = fit_steps(v);
  ASSERT_EQ(fit.points.size(), 1u);
  EXPECT_EQ(fit.points[0].index, 20u);
}

TEST(ChangePoints, NoiselessStepIsFoundOnce) {
  std::vector<double> v(6, 10.0);
  v.insert(v.end(), 6, 20.0);
  auto fit = fit_steps(v);
  ASSERT_EQ(fit.points.size(), 1u);
  EXPECT_EQ(fit.points[0].index, 6u);
  EXPECT_NEAR(fit.points[0].change, 2.0, 1e-9);
}

TEST(ChangePoints, TooShortSeriesHasNone) { EXPECT_TRUE(fit_steps({1, 2, 3}).points.empty()); }
