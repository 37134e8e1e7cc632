// A Google Benchmark binary for the end-to-end tests of the gbench scenario kind: one pair,
// BM_Sum/before (a strided walk that misses the cache) and BM_Sum/after (the same sum, walked in
// order), so AFTER is reliably faster and both compute the same total.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

std::vector<std::uint32_t>& data() {
  static std::vector<std::uint32_t> v = [] {
    std::vector<std::uint32_t> d(1 << 21);
    std::iota(d.begin(), d.end(), 1u);
    return d;
  }();
  return v;
}

void sum_strided(benchmark::State& state) {
  const auto& d = data();
  const std::size_t stride = 4099;  // co-prime with the size: every element once
  for (auto _ : state) {
    std::uint64_t s = 0;
    std::size_t i = 0;
    for (std::size_t k = 0; k < d.size(); ++k) {
      s += d[i];
      i = (i + stride) & (d.size() - 1);
    }
    benchmark::DoNotOptimize(s);
  }
}

void sum_in_order(benchmark::State& state) {
  const auto& d = data();
  for (auto _ : state) {
    std::uint64_t s = 0;
    for (std::size_t k = 0; k < d.size(); ++k) s += d[k];
    benchmark::DoNotOptimize(s);
  }
}

}  // namespace

BENCHMARK(sum_strided)->Name("BM_Sum/before")->Unit(benchmark::kMicrosecond);
BENCHMARK(sum_in_order)->Name("BM_Sum/after")->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
