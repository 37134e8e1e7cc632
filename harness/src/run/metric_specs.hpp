// Every metric perfgate measures itself, declared once: its unit, which way is better, and
// whether it is exact. An exact metric is a count of the work (calls, bytes, allocations): the
// same program on the same input gives the same value on any CPU with this core count, so a
// baseline compares it on every host class. Times, CPU, memory peaks, scheduling counts and
// instruction counts are host-dependent (glibc picks CPU-specific string functions at load
// time, so even Ir moves between CPUs). A program declares its own metrics the same way on its
// report line (perfgate/sample.hpp: Report::metric(..., Exact::Yes)).
#pragma once

#include <string>

#include "run/sample.hpp"

namespace perfgate::run {

// Bumped whenever how perfgate measures a metric changes (a cgroup file read differently, a
// window moved): accepted baseline runs of another version measured something else
// (suite/fingerprint.hpp).
// 2: the CPU window is the wall window, exec to exit: the child shares our memory until it
// execs (no copy of perfgate's address space charged to it) and its pre-exec CPU is left out.
inline constexpr int kMeasurementVersion = 2;

struct MetricSpec {
  const char* name;
  const char* unit;
  Better better;
  bool exact;
};

// The declaration of a metric perfgate measures, or null for a name it does not measure
// (a program's own metric, a Google Benchmark counter).
const MetricSpec* harness_metric(const std::string& name);

// A value of a declared metric, with where it came from.
MetricValue measured(const std::string& name, double value, const std::string& source);

}  // namespace perfgate::run
