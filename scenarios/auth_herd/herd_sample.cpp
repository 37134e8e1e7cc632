// auth_herd's seed and sample (main.cpp hands them to the SDK).
//
// The digest covers every answer the program got: each herd caller's, in caller order, then
// the probe users' first (caching) answers, every warm hit's and, after each timed batch of
// hits, the probes of probes.hpp (an unknown user, the herd user's name in upper case, a wrong
// password for a cached user, a revoked user), each of which a cache shortcut answers wrongly.
// A wrong answer is reported with Report::not_equivalent (the harness exits 3), never thrown.
#include "herd_sample.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <perfgate/alloc_window.hpp>
#include <perfgate/outside_window.hpp>
#include <perfgate/percentile.hpp>
#include <perfgate/seeders/blobs.hpp>

#include "auth_cache.hpp"
#include "herd.hpp"
#include "late_probes.hpp"
#include "probes.hpp"

namespace fs = std::filesystem;
using perfgate::json;

namespace auth_herd {
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

}  // namespace

perfgate::json seed(const perfgate::Invocation& inv) {
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
  // The probes' users (probes.hpp), with cheap hashes.
  for (const auto& [key, id] : {std::pair<const char*, int>{"probe", 2000}, {"leaver", 2001}}) {
    const std::string password = random_password(rng);
    std::uint8_t salt[16];
    rng.fill(reinterpret_cast<char*>(salt), sizeof salt);
    store.put(User{id, key, hash_password(password, salt, kProbeArgon2)});
    herd[key] = {{"user", key}, {"user_id", id}, {"password", password}};
  }
  herd["probe"]["wrong_password"] = random_password(rng);
  // The late probes' users (late_probes.hpp): cheap hashes too; the broken one's cannot be decoded.
  for (const auto& [key, id] : {std::pair<const char*, int>{"racer", 2002}, {"revokee", 2003}, {"broken", 2004}}) {
    const std::string password = random_password(rng);
    std::uint8_t salt[16];
    rng.fill(reinterpret_cast<char*>(salt), sizeof salt);
    const bool broken = std::string(key) == "broken";
    store.put(User{id, key, broken ? std::string(kMalformedHash) : hash_password(password, salt, kProbeArgon2)});
    herd[key] = {{"user", key}, {"user_id", id}, {"password", password}};
  }
  herd["racer"]["wrong_password"] = random_password(rng);
  herd["argon2"] = {{"m_kib", params.m_kib}, {"t", params.t}, {"p", params.p}};
  const fs::path target = inv.target;
  fs::create_directories(target);
  store.save(target / "credentials.tsv");
  std::ofstream(target / "herd.json") << herd.dump(2) << '\n';
  return json{{"users", users}, {"seconds", sw.ms() / 1000}};
}

namespace {

// The warm phase: `warm_hits` hits of the herd's credentials, timed in batches (a clock read
// per call would weigh as much as the call), each batch followed by the untimed probes
// (probes.hpp). Answers are recorded, digested after. Returns the verifications the timed hits
// made (none: they are hits).
std::uint64_t warm_phase(Authenticator& auth, Verifier& verifier, Probes& probes, const std::string& user,
                         const std::string& password, UserId expected, int warm_hits, perfgate::OutputLog& out,
                         perfgate::Report& report) {
  constexpr int kBatch = 50;
  const int batches = (warm_hits + kBatch - 1) / kBatch;
  std::vector<std::optional<UserId>> hits(static_cast<std::size_t>(batches) * kBatch);
  std::vector<std::vector<ProbeAnswer>> probed(static_cast<std::size_t>(batches));
  std::vector<double> per_call_us;
  std::uint64_t hit_verifications = 0;
  const auto primed = probes.prime();
  for (int b = 0; b < batches; ++b) {
    const std::uint64_t verified = verifier.count();
    perfgate::Stopwatch sw;
    for (int i = 0; i < kBatch; ++i) hits[static_cast<std::size_t>(b * kBatch + i)] = auth.authenticate(user, password);
    per_call_us.push_back(sw.ms() * 1000 / kBatch);
    hit_verifications += verifier.count() - verified;
    probed[static_cast<std::size_t>(b)] = probes.after_batch(b, batches);
  }
  auto record = [&](const std::string& what, const ProbeAnswer& p) {
    out.line(what + " " + p.label + " " + answer_text(p.got));
    if (p.got != p.expected)
      report.not_equivalent(what + " for '" + p.label + "' answered " + answer_text(p.got) + ", expected " +
                            answer_text(p.expected));
  };
  for (const auto& p : primed) record("prime", p);
  for (std::size_t i = 0; i < hits.size(); ++i) {
    out.line("warm " + std::to_string(i) + " " + answer_text(hits[i]));
    if (hits[i] != expected)
      report.not_equivalent("warm hit " + std::to_string(i) + " answered " + answer_text(hits[i]) + ", expected " +
                            answer_text(expected));
    if (i % kBatch == kBatch - 1)
      for (const auto& p : probed[i / kBatch]) record("probe " + std::to_string(i / kBatch), p);
  }
  report.metric("warm_hit_us", perfgate::percentile(per_call_us, 0.5), "us").series("warm_hit_us", per_call_us, "us");
  return hit_verifications;
}

}  // namespace

perfgate::Report run(const perfgate::Invocation& inv) {
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

  UserStore store = UserStore::load(fixture / "credentials.tsv");
  for (const char* key : {"probe", "leaver", "racer", "revokee", "broken"})
    if (!herd.contains(key))
      throw std::runtime_error("the fixture " + fixture.string() + " predates the probe user " + key + ": reseed");
  Verifier verifier;
  CredentialCache cache;  // cold
  // Extra variants name the implementation they run with --impl (before or after).
  const std::string impl = inv.flag("impl", inv.variant);
  auto auth = make_authenticator(impl, store, verifier, cache, inv.lie);

  // The herd is perfgate's outside window "herd" (its clock and the cgroup's CPU, held against
  // herd_ms and herd_cpu_ms) and the alloc counter's window (in the counting run: one m_kib
  // block, a large allocation, per Argon2id verification, held against verifications).
  HerdResult result;
  perfgate_alloc_window_start();
  {
    perfgate::OutsideWindow window("herd");
    result = run_herd(*auth, user, password, callers, impl == "after" && inv.lie == "early-herd-clock");
  }
  perfgate_alloc_window_stop();
  const std::uint64_t verifications = verifier.count();

  perfgate::Report report;
  perfgate::Digest digest;
  perfgate::OutputLog out(digest);
  for (int i = 0; i < callers; ++i) {
    const Answer& a = result.answers[static_cast<std::size_t>(i)];
    if (!a.error.empty()) throw std::runtime_error("caller " + std::to_string(i) + " failed: " + a.error);
    if (wrong ? a.user_id.has_value() : a.user_id != expected)
      report.not_equivalent(describe(i, a) + ", expected " + (wrong ? "denied" : answer_text(expected)));
    out.line(describe(i, a));
  }
  if (impl == "after" && !wrong && verifications != 1)
    throw std::runtime_error("gate: AFTER made " + std::to_string(verifications) +
                             " verifications for one herd, expected 1");
  if (wrong && verifications != static_cast<std::uint64_t>(callers))
    throw std::runtime_error("gate: a wrong-password herd of " + std::to_string(callers) + " made " +
                             std::to_string(verifications) + " verifications; every caller must pay one");

  if (!wrong && warm_hits > 0) {
    Probes probes(*auth, store, herd);
    if (const auto again = warm_phase(*auth, verifier, probes, user, password, expected, warm_hits, out, report))
      throw std::runtime_error("gate: warm hits verified again (" + std::to_string(again) + ")");
    // Untimed: the late probes (late_probes.hpp), a mixed herd, a revocation racing a
    // verification, a malformed stored hash.
    const std::function<std::uint64_t()> joined = [&] { return impl == "after" ? after::coalesced(*auth) : 0; };
    for (const auto& a : late_probes(*auth, verifier, store, herd, joined)) {
      out.line("late " + a.label + " " + a.got);
      if (a.got != a.expected)
        report.not_equivalent("late probe '" + a.label + "' answered " + a.got + ", expected " + a.expected);
    }
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
  return report;
}

}  // namespace auth_herd
