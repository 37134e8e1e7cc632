// Thirteen benchmarks of the standard library (sorting, trees, hashing, strings, memory, maths):
// a Google Benchmark binary of the size `perfgate gbench` meets in a library, for
// scripts/gbench-aa.sh's `copy` study (the binary against a byte copy of itself, and against
// gbench_stdlib_acc10, whose BM_Accumulate sums 10% more numbers). Nothing here is timed by
// hand: the work is fixed, seeded data.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#ifndef ACCUMULATED
#define ACCUMULATED (1 << 16)
#endif

namespace {

std::vector<unsigned> seeded(std::size_t n) {
  std::mt19937 r(1);
  std::vector<unsigned> v(n);
  for (auto& x : v) x = r();
  return v;
}

void BM_SortU32(benchmark::State& s) {
  const auto d = seeded(static_cast<std::size_t>(s.range(0)));
  for (auto _ : s) {
    auto c = d;
    std::sort(c.begin(), c.end());
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_StableSort(benchmark::State& s) {
  const auto d = seeded(8192);
  for (auto _ : s) {
    auto c = d;
    std::stable_sort(c.begin(), c.end());
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_MapInsert(benchmark::State& s) {
  const auto d = seeded(4096);
  for (auto _ : s) {
    std::map<unsigned, unsigned> m;
    for (auto x : d) m[x] = x;
    benchmark::DoNotOptimize(m.size());
  }
}

void BM_HashInsert(benchmark::State& s) {
  const auto d = seeded(4096);
  for (auto _ : s) {
    std::unordered_map<unsigned, unsigned> m;
    for (auto x : d) m[x] = x;
    benchmark::DoNotOptimize(m.size());
  }
}

void BM_SetFind(benchmark::State& s) {
  const auto d = seeded(4096);
  const std::set<unsigned> set(d.begin(), d.end());
  for (auto _ : s) {
    unsigned n = 0;
    for (auto x : d) n += static_cast<unsigned>(set.count(x ^ 1));
    benchmark::DoNotOptimize(n);
  }
}

void BM_Accumulate(benchmark::State& s) {
  const auto d = seeded(ACCUMULATED);
  for (auto _ : s) benchmark::DoNotOptimize(std::accumulate(d.begin(), d.end(), 0ull));
}

void BM_Memcpy(benchmark::State& s) {
  std::vector<char> from(1 << 16, 'x'), to(1 << 16);
  for (auto _ : s) {
    std::memcpy(to.data(), from.data(), from.size());
    benchmark::DoNotOptimize(to.data());
  }
}

void BM_StringConcat(benchmark::State& s) {
  for (auto _ : s) {
    std::string t;
    for (int i = 0; i < 1000; ++i) t += std::to_string(i);
    benchmark::DoNotOptimize(t.data());
  }
}

void BM_StringStream(benchmark::State& s) {
  for (auto _ : s) {
    std::ostringstream o;
    for (int i = 0; i < 500; ++i) o << i << ' ';
    benchmark::DoNotOptimize(o.str().size());
  }
}

void BM_Sqrt(benchmark::State& s) {
  const auto d = seeded(4096);
  for (auto _ : s) {
    double t = 0;
    for (auto x : d) t += std::sqrt(static_cast<double>(x));
    benchmark::DoNotOptimize(t);
  }
}

void BM_NthElement(benchmark::State& s) {
  const auto d = seeded(1 << 14);
  for (auto _ : s) {
    auto c = d;
    std::nth_element(c.begin(), c.begin() + static_cast<long>(c.size() / 2), c.end());
    benchmark::DoNotOptimize(c[c.size() / 2]);
  }
}

void BM_BinarySearch(benchmark::State& s) {
  auto d = seeded(1 << 14);
  std::sort(d.begin(), d.end());
  for (auto _ : s) {
    unsigned n = 0;
    for (unsigned i = 0; i < 1024; ++i) n += std::binary_search(d.begin(), d.end(), i * 2654435761u);
    benchmark::DoNotOptimize(n);
  }
}

}  // namespace

BENCHMARK(BM_SortU32)->Arg(1 << 10)->Arg(1 << 14);
BENCHMARK(BM_StableSort);
BENCHMARK(BM_MapInsert);
BENCHMARK(BM_HashInsert);
BENCHMARK(BM_SetFind);
BENCHMARK(BM_Accumulate);
BENCHMARK(BM_Memcpy);
BENCHMARK(BM_StringConcat);
BENCHMARK(BM_StringStream);
BENCHMARK(BM_Sqrt);
BENCHMARK(BM_NthElement);
BENCHMARK(BM_BinarySearch);
BENCHMARK_MAIN();
