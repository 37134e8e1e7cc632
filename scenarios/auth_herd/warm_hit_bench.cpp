// auth_herd_bench: the warm-hit latency of both variants with Google Benchmark (seed 000 [4]:
// "warm hit p50: 0.6 us"). The cache is primed once, so the Argon2 cost does not matter here.
//   auth_herd_bench --benchmark_format=json --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include "auth_cache.hpp"

namespace {
using namespace auth_herd;

struct World {
  UserStore users;
  Verifier verifier;
  CredentialCache cache;
  std::unique_ptr<Authenticator> auth;
  explicit World(const std::string& variant) {
    const std::uint8_t salt[16] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    users.put(User{1003, "user03", hash_password("correct horse", salt, Argon2Params{1024, 1, 1})});
    auth = make_authenticator(variant, users, verifier, cache);
    if (auth->authenticate("user03", "correct horse") != 1003) throw std::runtime_error("priming failed");
  }
};

void BM_WarmHit(benchmark::State& state, const char* variant) {
  static World before("before"), after("after");
  World& w = std::string(variant) == "before" ? before : after;
  for (auto _ : state) benchmark::DoNotOptimize(w.auth->authenticate("user03", "correct horse"));
  if (w.verifier.count() != 1) state.SkipWithError("a warm hit verified");
}

}  // namespace

BENCHMARK_CAPTURE(BM_WarmHit, before, "before")->ThreadRange(1, 2)->UseRealTime();
BENCHMARK_CAPTURE(BM_WarmHit, after, "after")->ThreadRange(1, 2)->UseRealTime();
BENCHMARK_MAIN();
