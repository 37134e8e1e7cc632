// Google Benchmark binaries for tests/e2e/test_gbench.py, one source built with different work
// (tests/tools/CMakeLists.txt): BM_Hash, BM_Sort and BM_Walk do the same work in every build;
// BM_Slower does SLOWER times the base work and BM_Faster 1/FASTER of it (both 1 in build A).
// The work is counted, never slept: an xorshift chain whose length is the work, a sort of a
// fixed array, a walk over a fixed buffer. LAYOUT_PAD adds unused code before the benchmarks,
// so the same functions land at other addresses (the code layout measurement of docs/gbench.md);
// EXTRA_BENCHMARK adds BM_New, a benchmark the other builds do not have.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#ifndef SLOWER
#define SLOWER 1.0
#endif
#ifndef FASTER
#define FASTER 1.0
#endif

#if LAYOUT_PAD
__attribute__((used, noinline)) void layout_pad() { asm volatile(".skip " LAYOUT_PAD_BYTES ", 0x90"); }
#endif

namespace {

constexpr std::uint64_t kChain = 20000;  // ~20 µs of dependent multiply-xor steps

// `steps` passes through DoNotOptimize, so the compiler can neither fold the chain nor hoist
// the call out of the benchmark's loop (it is a pure function of a constant otherwise).
__attribute__((noinline)) std::uint64_t chain(std::uint64_t steps) {
  benchmark::DoNotOptimize(steps);
  std::uint64_t x = 88172645463325252ull;
  for (std::uint64_t i = 0; i < steps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

void BM_Hash(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(chain(kChain));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kChain));
}

void BM_Sort(benchmark::State& state) {
  std::vector<std::uint32_t> data(4096);
  std::uint32_t x = 2463534242u;
  for (auto& v : data) v = (x ^= x << 13, x ^= x >> 17, x ^= x << 5);
  for (auto _ : state) {
    auto copy = data;
    std::sort(copy.begin(), copy.end());
    benchmark::DoNotOptimize(copy.data());
  }
}

void BM_Walk(benchmark::State& state) {
  std::vector<std::uint64_t> buffer(1 << 14);
  std::iota(buffer.begin(), buffer.end(), 1);
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (auto v : buffer) sum += v * v;
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(buffer.size() * sizeof(std::uint64_t)));
}

void BM_Slower(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(chain(static_cast<std::uint64_t>(kChain * SLOWER)));
}

void BM_Faster(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(chain(static_cast<std::uint64_t>(kChain / FASTER)));
}

#if EXTRA_BENCHMARK
void BM_New(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(chain(kChain));
}
BENCHMARK(BM_New);
#endif

}  // namespace

BENCHMARK(BM_Hash);
BENCHMARK(BM_Sort);
BENCHMARK(BM_Walk);
BENCHMARK(BM_Slower);
BENCHMARK(BM_Faster);
BENCHMARK_MAIN();
