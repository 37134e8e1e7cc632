// The wordfreq project of docs/gbench.md, benchmarked the way a Google Benchmark user would:
// three benchmarks over data/words.txt, read by a relative path from the folder the binary runs in
// (make_input.py writes it). Built twice, v1 and v2, with the same benchmark names.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tokens.hpp"
#include "wordfreq.hpp"

static const std::string& input() {
  static const std::string text = [] {
    std::ifstream f("data/words.txt");
    if (!f) throw std::runtime_error("cannot open data/words.txt");
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }();
  return text;
}

static void BM_TopWordsSmall(benchmark::State& state) {
  const std::string text = input().substr(0, 4096);
  for (auto _ : state) benchmark::DoNotOptimize(top_words(text, 10));
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_TopWordsSmall);

static void BM_TopWordsLarge(benchmark::State& state) {
  const std::string& text = input();
  for (auto _ : state) benchmark::DoNotOptimize(top_words(text, 10));
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_TopWordsLarge)->Unit(benchmark::kMillisecond);

static void BM_Tokenize(benchmark::State& state) {
  const std::string& text = input();
  for (auto _ : state) {
    std::size_t words = 0;
    for_each_word(text, [&](const std::string&) { ++words; });
    benchmark::DoNotOptimize(words);
  }
  state.SetBytesProcessed(state.iterations() * text.size());
}
BENCHMARK(BM_Tokenize)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
