// __NAME__ as a Google Benchmark binary (kind gbench): perfgate pairs BM_Answer/before and
// BM_Answer/after repetition by repetition. Google Benchmark prints no digest, so perfgate's gate
// only checks that the pair exists: tests/ hold BEFORE and AFTER to the same answers, and the
// `answer_bytes` counter (the bytes of one pass's answers, an exact count) shows an AFTER that
// answers less: the manifest's lies are declared caught by it. Sizes: work.hpp's Params defaults.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "work.hpp"

namespace {

__NAME__::Lies lies;  // `--lie NAME`: perfgate lies appends a manifest lie's args to the command

const __NAME__::Input& input() {
  static const auto in = __NAME__::make_input({});
  return in;
}

template <class Make>
void answer_queries(benchmark::State& state, Make make) {
  std::vector<std::string> answers;
  for (auto _ : state) {
    answers = __NAME__::answer_all(make(), input().queries);  // building the index is AFTER's work too
    benchmark::DoNotOptimize(answers.data());
  }
  std::size_t bytes = 0;
  for (const auto& a : answers) bytes += a.size();
  state.counters["answer_bytes"] = static_cast<double>(bytes);
}

}  // namespace

BENCHMARK_CAPTURE(answer_queries, before, [] { return __NAME__::Before(input().records); })
    ->Name("BM_Answer/before")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(answer_queries, after, [] { return __NAME__::After(input().records, lies); })
    ->Name("BM_Answer/after")
    ->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--lie") == 0) {
      perfgate::Invocation inv;  // the lie as scenario_main would take it: one of program()'s
      inv.lie = argv[i + 1];
      const auto known = __NAME__::program().lie_names;
      if (std::find(known.begin(), known.end(), inv.lie) == known.end()) {
        std::fprintf(stderr, "unknown lie '%s'\n", inv.lie.c_str());
        return 2;
      }
      lies = __NAME__::lies_from(inv);
      for (int j = i; j + 2 <= argc; ++j) argv[j] = argv[j + 2];  // Google Benchmark refuses flags it does not know
      argc -= 2;
      break;
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
