// The interposer's cost per allocation: one malloc + free pair through glibc, then through
// libperfgate_alloc.so's own malloc/free (dlopen'd, called directly, so the process's malloc
// stays glibc's). The difference per pair is what counting adds to a counted sample.
//   build/harness/preload/alloc_cost_bench [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

using MallocFn = void* (*)(std::size_t);
using FreeFn = void (*)(void*);

struct Interposer {
  MallocFn malloc_fn = nullptr;
  FreeFn free_fn = nullptr;
  Interposer() {
    void* lib = dlopen(PERFGATE_ALLOC_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      std::fprintf(stderr, "alloc_cost_bench: %s\n", dlerror());
      std::exit(1);
    }
    malloc_fn = reinterpret_cast<MallocFn>(dlsym(lib, "malloc"));
    free_fn = reinterpret_cast<FreeFn>(dlsym(lib, "free"));
  }
};

const Interposer& interposer() {
  static const Interposer i;
  return i;
}

void BM_glibc_malloc_free(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    void* p = std::malloc(size);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
}

void BM_counted_malloc_free(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  const Interposer& i = interposer();
  for (auto _ : state) {
    void* p = i.malloc_fn(size);
    benchmark::DoNotOptimize(p);
    i.free_fn(p);
  }
}

}  // namespace

BENCHMARK(BM_glibc_malloc_free)->Arg(64)->Arg(4096);
BENCHMARK(BM_counted_malloc_free)->Arg(64)->Arg(4096);
BENCHMARK_MAIN();
