// How planning lists a Google Benchmark binary's benchmarks (plan::BenchmarkLister): the binary
// run with --benchmark_list_tests in the folder it will run in (a fresh one when it has none),
// before the rounds, so the plan is complete before anything is measured.
#pragma once

#include "plan/plan.hpp"

namespace perfgate::suite {

plan::BenchmarkLister benchmark_lister();

}  // namespace perfgate::suite
