// The values tests build their cases from, each spelled once for every room's tests: a metric's
// value in a sample, a comparison of AFTER against BEFORE, a baseline entry.
#pragma once

#include <string>

#include "model/results_model.hpp"
#include "run/sample.hpp"

namespace perfgate::model::testing {

inline run::MetricValue metric_value(double value, const std::string& unit) {
  run::MetricValue m;
  m.value = value;
  m.unit = unit;
  return m;
}

// AFTER against BEFORE on `metric` (lower is better), its ratio's interval [lo, hi].
inline Comparison comparison(const std::string& metric, double lo, double hi) {
  Comparison c;
  c.variant = "after";
  c.baseline = "before";
  c.metric = metric;
  c.better = Better::Lower;
  c.r.ci = {lo, hi};
  return c;
}

// Scenario "s", profile "quick", cpu_ms: its ratio and interval [lo, hi].
inline BaselineEntry baseline_entry(double ratio, double lo, double hi) {
  BaselineEntry e;
  e.scenario = "s";
  e.profile = "quick";
  e.metric = "cpu_ms";
  e.ratio = ratio;
  e.ci = {lo, hi};
  return e;
}

}  // namespace perfgate::model::testing
