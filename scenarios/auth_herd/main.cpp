// auth_herd — contract plumbing (docs/scenario-contract.md). The two implementations are
// before.cpp and after.cpp, over the cache in auth_cache.cpp.
//
//   auth_herd seed --profile P --target DIR --params JSON
//   auth_herd run  --variant V --profile P --fixture DIR --params JSON [--impl before|after] [--wrong-password]
//
// The harness measures the herd's CPU from outside (cgroup cpu_ms, the primary metric); the
// program reports its own figures beside it: the herd's wall and CPU, the verifications, and
// the warm-hit latency.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <perfgate/percentile.hpp>
#include <perfgate/sample.hpp>
#include <perfgate/seeders/blobs.hpp>

#include "auth_cache.hpp"
#include "herd.hpp"

namespace fs = std::filesystem;
using perfgate::json;
using namespace auth_herd;

namespace {

constexpr std::uint64_t kSeed = 0x5eed000004ULL;  // seed 000 [4]

Argon2Params argon2_params(const perfgate::Invocation& inv) {
  return Argon2Params{inv.param<std::uint32_t>("m_kib"), inv.param<std::uint32_t>("t"), inv.param<std::uint32_t>("p")};
}

std::string random_password(perfgate::seeders::ByteStream& rng) {
  static constexpr char alphabet[] = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  std::string s;
  for (int i = 0; i < 20; ++i) s += alphabet[rng.next() % (sizeof alphabet - 1)];
  return s;
}

int seed(const perfgate::Invocation& inv) {
  perfgate::Stopwatch sw;
  const Argon2Params params = argon2_params(inv);
  const int users = inv.param<int>("users", 4);
  const int herd_user = inv.param<int>("herd_user", users - 1);
  if (users < 1 || herd_user < 0 || herd_user >= users) throw std::runtime_error("need 0 <= herd_user < users");
  perfgate::seeders::ByteStream rng(kSeed);
  UserStore store;
  json herd;
  for (int i = 0; i < users; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "user%02d", i);
    const std::string password = random_password(rng);
    std::uint8_t salt[16];
    rng.fill(reinterpret_cast<char*>(salt), sizeof salt);
    store.put(User{1000 + i, name, hash_password(password, salt, params)});
    if (i == herd_user) herd = {{"user", name}, {"user_id", 1000 + i}, {"password", password}};
  }
  herd["wrong_password"] = random_password(rng);
  herd["argon2"] = {{"m_kib", params.m_kib}, {"t", params.t}, {"p", params.p}};
  const fs::path target = inv.target;
  fs::create_directories(target);
  store.save(target / "credentials.tsv");
  std::ofstream(target / "herd.json") << herd.dump(2) << '\n';
  std::cout << json{{"users", users}, {"seconds", sw.ms() / 1000}}.dump() << std::endl;
  return 0;
}

int run(const perfgate::Invocation& inv) {
  const fs::path fixture = inv.fixture;
  json herd;
  std::ifstream(fixture / "herd.json") >> herd;
  if (herd.is_null()) throw std::runtime_error("no herd.json in the fixture " + fixture.string() + ": run seed first");
  const Argon2Params want = argon2_params(inv);
  if (herd.at("argon2") != json{{"m_kib", want.m_kib}, {"t", want.t}, {"p", want.p}})
    throw std::runtime_error("the fixture was seeded with Argon2 " + herd.at("argon2").dump() +
                             ", the profile asks for " +
                             json{{"m_kib", want.m_kib}, {"t", want.t}, {"p", want.p}}.dump() + ": reseed");
  const int callers = inv.param<int>("callers");
  const int warm_hits = inv.param<int>("warm_hits", 2000);
  const bool wrong = inv.has("wrong-password");
  const std::string user = herd.at("user");
  const std::string password = wrong ? herd.at("wrong_password") : herd.at("password");
  const UserId expected = herd.at("user_id");

  const UserStore store = UserStore::load(fixture / "credentials.tsv");
  Verifier verifier;
  CredentialCache cache;  // cold
  // Extra variants name the implementation they run with --impl (before or after).
  const std::string impl = inv.flag("impl", inv.variant);
  auto auth = make_authenticator(impl, store, verifier, cache);

  const HerdResult result = run_herd(*auth, user, password, callers);
  const std::uint64_t verifications = verifier.count();

  perfgate::Digest digest;
  perfgate::OutputLog out(digest);
  for (int i = 0; i < callers; ++i) {
    const Answer& a = result.answers[static_cast<std::size_t>(i)];
    if (!a.error.empty()) throw std::runtime_error("caller " + std::to_string(i) + " failed: " + a.error);
    if (wrong ? a.user_id.has_value() : a.user_id != expected)
      throw std::runtime_error("gate: " + describe(i, a) + ", expected " +
                               (wrong ? "denied" : "user_id=" + std::to_string(expected)));
    out.line(describe(i, a));
  }
  if (impl == "after" && !wrong && verifications != 1)
    throw std::runtime_error("gate: AFTER made " + std::to_string(verifications) +
                             " verifications for one herd, expected 1");
  if (wrong && verifications != static_cast<std::uint64_t>(callers))
    throw std::runtime_error("gate: a wrong-password herd of " + std::to_string(callers) + " made " +
                             std::to_string(verifications) + " verifications; every caller must pay one");

  perfgate::Report report;
  // Warm hits: the cache now answers without verifying. Timed in batches (a clock read per
  // call would weigh as much as the call).
  if (!wrong && warm_hits > 0) {
    constexpr int kBatch = 50;
    std::vector<double> per_call_us;
    UserId sink = 0;
    for (int b = 0; b < (warm_hits + kBatch - 1) / kBatch; ++b) {
      perfgate::Stopwatch sw;
      for (int i = 0; i < kBatch; ++i) sink += auth->authenticate(user, password).value_or(0);
      per_call_us.push_back(sw.ms() * 1000 / kBatch);
    }
    if (sink == 0 || verifier.count() != verifications)
      throw std::runtime_error("gate: warm hits verified again (" + std::to_string(verifier.count() - verifications) +
                               ")");
    report.metric("warm_hit_us", perfgate::percentile(per_call_us, 0.5), "us").series("warm_hit_us", per_call_us, "us");
  }

  // The wrong-password variants answer differently from before/after: they are compared with
  // each other on this field (the harness compares before/after on it too when they print it,
  // so only a wrong-password herd does).
  if (wrong) report.extra("wrong_password_answers", digest.hex());
  report.digest(digest.hex())
      .metric("herd_ms", result.wall_ms, "ms")
      .metric("herd_cpu_ms", result.cpu_ms, "ms")
      .metric("verifications", static_cast<double>(verifications), "count")
      .extra("callers", callers)
      .extra("wrong_password", wrong)
      .extra("argon2", herd.at("argon2"))
      .extra("cached_entries", cache.size());
  report.extra("implementation", impl);
  if (impl == "after") report.extra("coalesced_callers", after::coalesced(*auth));
  report.print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::main_guard("auth_herd", [&] {
    const auto inv = perfgate::parse_invocation(argc, argv);
    if (inv.command == "seed") return seed(inv);
    if (inv.command == "run") return run(inv);
    throw std::runtime_error("auth_herd is a batch scenario: it has no serve command");
  });
}
