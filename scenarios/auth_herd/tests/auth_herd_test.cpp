// auth_herd: single-flight coalescing, failures never cached nor shared (a wrong-password
// herd pays every verification in both variants), revocation, and the answers gate.
// Real libargon2 hashes with light parameters. The herd is held in place with the
// verifier's test hook so that "concurrent" is a fact, not a timing accident; no assertion
// is about time, and every wait is bounded so that a bug fails instead of hanging.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "auth_cache.hpp"
#include "herd.hpp"
#include "late_probes.hpp"
#include "probes.hpp"

using namespace auth_herd;
using namespace std::chrono_literals;

namespace {

constexpr Argon2Params kLight{256, 1, 1};  // 256 KiB, 1 pass: a millisecond
const std::uint8_t kSalt[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

// Waits (bounded) until a condition over a counter holds.
class Gauge {
 public:
  int add() {
    int n;
    {
      std::lock_guard l(m_);
      n = ++n_;
    }
    cv_.notify_all();
    return n;
  }
  bool wait_at_least(int n, std::chrono::seconds limit = 10s) {
    std::unique_lock l(m_);
    return cv_.wait_for(l, limit, [&] { return n_ >= n; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_ = 0;
};

class AuthHerd : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    users.put(User{1001, "alice", hash_password("alice-pw", kSalt, kLight)});
    users.put(User{1002, "bob", hash_password("bob-pw", kSalt, kLight)});
    auth = make_authenticator(GetParam(), users, verifier, cache);
  }
  bool is_after() const { return GetParam() == "after"; }

  // Holds every verification until `callers` callers are inside authenticate() and past the
  // cache: in BEFORE all of them verify; in AFTER one leads and the others join its flight.
  void hold_herd_of(int callers) {
    verifier.before_verify = [this, callers] {
      const int n = started.add();
      if (is_after()) {
        if (n != 1) return;  // waiters that verify on their own (after a failed flight) pass straight through
        // The leader waits until the other callers have joined its flight.
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (after::coalesced(*auth) < static_cast<std::uint64_t>(callers - 1) &&
               std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(100us);
      } else {
        started.wait_at_least(callers);
      }
    };
  }

  UserStore users;
  Verifier verifier;
  CredentialCache cache;
  std::unique_ptr<Authenticator> auth;
  Gauge started;
};

INSTANTIATE_TEST_SUITE_P(Variants, AuthHerd, ::testing::Values("before", "after"),
                         [](const auto& info) { return info.param; });

TEST_P(AuthHerd, ColdHerdEveryCallerGetsTheSameUserId) {
  hold_herd_of(8);
  const auto herd = run_herd(*auth, "alice", "alice-pw", 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(describe(i, herd.answers[i]), "caller " + std::to_string(i) + " user_id=1001");
  // BEFORE: each of the 8 concurrent misses verifies; AFTER: one verification for the herd.
  EXPECT_EQ(verifier.count(), is_after() ? 1u : 8u);
  if (is_after()) {
    EXPECT_EQ(after::coalesced(*auth), 7u);
  }
  EXPECT_EQ(cache.size(), 1u);
}

TEST_P(AuthHerd, WarmHitsDoNotVerify) {
  ASSERT_EQ(auth->authenticate("alice", "alice-pw"), 1001);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(auth->authenticate("alice", "alice-pw"), 1001);
  EXPECT_EQ(verifier.count(), 1u);
}

// The manifest's lies (AFTER only): each does less, and each changes an answer the program digests.
TEST(AuthHerdLies, OneSlotCacheAnswersAnotherUserWithTheCachedId) {
  UserStore users;
  users.put(User{1001, "alice", hash_password("alice-pw", kSalt, kLight)});
  Verifier verifier;
  CredentialCache cache;
  auto honest = make_authenticator("after", users, verifier, cache);
  ASSERT_EQ(honest->authenticate("alice", "alice-pw"), 1001);
  EXPECT_EQ(honest->authenticate("nobody", "alice-pw"), std::nullopt);
  CredentialCache lie_cache;
  auto lie = make_authenticator("after", users, verifier, lie_cache, "one-slot-cache");
  ASSERT_EQ(lie->authenticate("alice", "alice-pw"), 1001);
  EXPECT_EQ(lie->authenticate("nobody", "alice-pw"), 1001) << "the lie answers whoever asks with the last success";
}

TEST(AuthHerdLies, WaitersDenyLeavesTheHerdWithoutAnswers) {
  UserStore users;
  users.put(User{1001, "alice", hash_password("alice-pw", kSalt, kLight)});
  Verifier verifier;
  CredentialCache cache;
  auto lie = make_authenticator("after", users, verifier, cache, "waiters-deny");
  // Hold the leader until the 7 others joined its flight (they return at once, denied).
  verifier.before_verify = [&] {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (after::coalesced(*lie) < 7 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(100us);
  };
  const auto herd = run_herd(*lie, "alice", "alice-pw", 8);
  int denied = 0;
  for (const auto& a : herd.answers) denied += a.user_id ? 0 : 1;
  EXPECT_EQ(denied, 7);
  EXPECT_EQ(verifier.count(), 1u);
}

// The probes of the warm phase (probes.hpp): every variant answers each as expected; each of
// the cache-key and revocation lies gets one of them wrong.
std::vector<std::string> probe_answers(const std::string& variant, const std::string& lie = "") {
  UserStore users;
  users.put(User{1003, "user03", hash_password("herd-pw", kSalt, kLight)});
  users.put(User{2000, "probe", hash_password("probe-pw", kSalt, kProbeArgon2)});
  users.put(User{2001, "leaver", hash_password("leaver-pw", kSalt, kProbeArgon2)});
  const nlohmann::json herd = {
      {"user", "user03"},
      {"password", "herd-pw"},
      {"probe", {{"user", "probe"}, {"user_id", 2000}, {"password", "probe-pw"}, {"wrong_password", "not-the-pw"}}},
      {"leaver", {{"user", "leaver"}, {"user_id", 2001}, {"password", "leaver-pw"}}}};
  Verifier verifier;
  CredentialCache cache;
  auto auth = make_authenticator(variant, users, verifier, cache, lie);
  EXPECT_EQ(auth->authenticate("user03", "herd-pw"), 1003);
  Probes probes(*auth, users, herd);
  std::vector<std::string> wrong;
  auto check = [&](const std::vector<ProbeAnswer>& answers) {
    for (const auto& p : answers)
      if (p.got != p.expected) wrong.push_back(p.label + " " + answer_text(p.got));
  };
  check(probes.prime());
  for (int b = 0; b < 4; ++b) check(probes.after_batch(b, 4));
  EXPECT_TRUE(probes.revoked());
  return wrong;
}

TEST_P(AuthHerd, EveryProbeIsAnsweredAsExpected) { EXPECT_EQ(probe_answers(GetParam()), std::vector<std::string>{}); }

TEST(AuthHerdLies, EachCacheShortcutGetsAProbeWrong) {
  EXPECT_EQ(probe_answers("after", "key-by-user"),
            (std::vector<std::string>{"probe wrong password user_id=2000", "probe wrong password user_id=2000",
                                      "probe wrong password user_id=2000", "probe wrong password user_id=2000"}));
  EXPECT_EQ(probe_answers("after", "key-case-folded"),
            (std::vector<std::string>{"USER03 user_id=1003", "USER03 user_id=1003", "USER03 user_id=1003",
                                      "USER03 user_id=1003"}));
  EXPECT_EQ(probe_answers("after", "revoke-noop"),
            (std::vector<std::string>{"leaver revoked user_id=2001", "leaver revoked user_id=2001"}));
}

TEST(AuthHerdLies, EachDroppedRefusalGetsAProbeWrong) {
  EXPECT_EQ(probe_answers("after", "accept-mismatch"),
            (std::vector<std::string>{"probe wrong password user_id=2000", "probe wrong password user_id=2000",
                                      "probe wrong password user_id=2000", "probe wrong password user_id=2000"}));
  EXPECT_EQ(probe_answers("after", "remembered-users"),
            (std::vector<std::string>{"leaver revoked user_id=2001", "leaver revoked user_id=2001"}));
  EXPECT_EQ(probe_answers("after", "name-folded-lookup"),
            (std::vector<std::string>{"USER03 user_id=1003", "USER03 user_id=1003", "USER03 user_id=1003",
                                      "USER03 user_id=1003"}));
}

// The late probes (late_probes.hpp): every variant answers each as expected; each of the
// three race / bad-input lies gets its own probe wrong.
std::vector<std::string> late_answers(const std::string& variant, const std::string& lie = "") {
  UserStore users;
  users.put(User{2002, "racer", hash_password("racer-pw", kSalt, kProbeArgon2)});
  users.put(User{2003, "revokee", hash_password("revokee-pw", kSalt, kProbeArgon2)});
  users.put(User{2004, "broken", kMalformedHash});
  const nlohmann::json herd = {
      {"racer", {{"user", "racer"}, {"user_id", 2002}, {"password", "racer-pw"}, {"wrong_password", "nope"}}},
      {"revokee", {{"user", "revokee"}, {"user_id", 2003}, {"password", "revokee-pw"}}},
      {"broken", {{"user", "broken"}, {"user_id", 2004}, {"password", "broken-pw"}}}};
  Verifier verifier;
  CredentialCache cache;
  auto auth = make_authenticator(variant, users, verifier, cache, lie);
  const std::function<std::uint64_t()> joined = [&] { return variant == "after" ? after::coalesced(*auth) : 0; };
  std::vector<std::string> wrong;
  for (const auto& a : late_probes(*auth, verifier, users, herd, joined))
    if (a.got != a.expected) wrong.push_back(a.label + " " + a.got);
  return wrong;
}

TEST_P(AuthHerd, EveryLateProbeIsAnsweredAsExpected) {
  EXPECT_EQ(late_answers(GetParam()), std::vector<std::string>{});
}

TEST(AuthHerdLies, EachRaceOrBadInputLieGetsALateProbeWrong) {
  EXPECT_EQ(late_answers("after", "flight-by-user"),
            (std::vector<std::string>{"racer caller 1 wrong password user_id=2002",
                                      "racer caller 3 wrong password user_id=2002",
                                      "racer caller 5 wrong password user_id=2002"}));
  EXPECT_EQ(late_answers("after", "skip-epoch-check"),
            std::vector<std::string>{"revokee after revocation user_id=2003"});
  EXPECT_EQ(late_answers("after", "malformed-denied"), std::vector<std::string>{"broken stored hash denied"});
}

TEST_P(AuthHerd, WrongPasswordHerdPaysEveryVerificationInBothVariants) {
  hold_herd_of(8);
  const auto herd = run_herd(*auth, "alice", "guess", 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(describe(i, herd.answers[i]), "caller " + std::to_string(i) + " denied");
  EXPECT_EQ(verifier.count(), 8u) << "brute-force cost preserved: one verification per attempt";
  if (is_after()) {
    EXPECT_EQ(after::coalesced(*auth), 7u) << "the 7 waited on the flight, then paid their own";
  }
  EXPECT_EQ(cache.size(), 0u) << "a failure is never cached";
}

TEST_P(AuthHerd, FailuresAreNeverCached) {
  EXPECT_EQ(auth->authenticate("alice", "guess"), std::nullopt);
  EXPECT_EQ(auth->authenticate("alice", "guess"), std::nullopt);
  EXPECT_EQ(verifier.count(), 2u) << "the second wrong attempt verified again";
  EXPECT_EQ(auth->authenticate("nobody", "x"), std::nullopt);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(auth->authenticate("alice", "alice-pw"), 1001) << "a failure does not poison the right password";
  EXPECT_EQ(auth->authenticate("alice", "alice-pw"), 1001);
  EXPECT_EQ(verifier.count(), 3u);
}

TEST_P(AuthHerd, VerificationErrorsAreNeverCachedNorShared) {
  users.put(User{1003, "carol", "$argon2id$v=19$m=256,t=1,p=1$not-a-hash"});
  hold_herd_of(4);
  const auto herd = run_herd(*auth, "carol", "pw", 4);
  for (const auto& a : herd.answers) EXPECT_NE(a.error, "") << "every caller sees the error";
  EXPECT_EQ(verifier.count(), 4u) << "the error was not handed to the waiters: each tried itself";
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_ANY_THROW(auth->authenticate("carol", "pw"));
  EXPECT_EQ(verifier.count(), 5u);
}

TEST_P(AuthHerd, RevokingAUserDropsItsEntriesOnly) {
  ASSERT_EQ(auth->authenticate("alice", "alice-pw"), 1001);
  ASSERT_EQ(auth->authenticate("bob", "bob-pw"), 1002);
  ASSERT_EQ(cache.size(), 2u);
  // A password change: the store gets the new hash, the cache drops alice's entries.
  users.put(User{1001, "alice", hash_password("new-pw", kSalt, kLight)});
  EXPECT_EQ(auth->revoke("alice"), 1u);
  EXPECT_EQ(cache.size(), 1u);
  const auto before = verifier.count();
  EXPECT_EQ(auth->authenticate("alice", "alice-pw"), std::nullopt) << "the old password no longer works";
  EXPECT_EQ(auth->authenticate("bob", "bob-pw"), 1002);
  EXPECT_EQ(verifier.count(), before + 1) << "bob's entry survived alice's revocation";
  EXPECT_EQ(auth->authenticate("alice", "new-pw"), 1001);
}

TEST_P(AuthHerd, ARevocationDuringAVerificationIsNotUndoneByIt) {
  Gauge in_verify, revoked;
  verifier.before_verify = [&] {
    in_verify.add();
    revoked.wait_at_least(1);
  };
  std::optional<UserId> answer;
  std::thread t([&] { answer = auth->authenticate("alice", "alice-pw"); });
  ASSERT_TRUE(in_verify.wait_at_least(1));
  auth->revoke("alice");
  revoked.add();
  t.join();
  EXPECT_EQ(answer, 1001) << "the caller still gets its answer";
  EXPECT_EQ(cache.size(), 0u) << "but the success that started before the revocation is not cached";
}

TEST_P(AuthHerd, ExpiredEntriesVerifyAgain) {
  CredentialCache no_ttl(std::chrono::seconds(0));
  auto a = make_authenticator(GetParam(), users, verifier, no_ttl);
  EXPECT_EQ(a->authenticate("alice", "alice-pw"), 1001);
  EXPECT_EQ(a->authenticate("alice", "alice-pw"), 1001);
  EXPECT_EQ(verifier.count(), 2u);
}

// The equivalence gate of the scenario: both variants answer the herd the same way.
TEST(AuthHerdGate, BothVariantsGiveEveryCallerTheSameAnswer) {
  UserStore users;
  users.put(User{1001, "alice", hash_password("alice-pw", kSalt, kLight)});
  std::vector<std::string> answers[2];
  for (int v = 0; v < 2; ++v) {
    Verifier verifier;
    CredentialCache cache;
    auto auth = make_authenticator(v == 0 ? "before" : "after", users, verifier, cache);
    const auto herd = run_herd(*auth, "alice", "alice-pw", 8);
    for (int i = 0; i < 8; ++i) answers[v].push_back(describe(i, herd.answers[i]));
  }
  EXPECT_EQ(answers[0], answers[1]);
}

TEST(AuthHerdCredentials, RealArgon2idHashesVerify) {
  const std::string encoded = hash_password("pw", kSalt, Argon2Params{1024, 2, 2});
  EXPECT_EQ(encoded.rfind("$argon2id$v=19$m=1024,t=2,p=2$", 0), 0u) << encoded;
  Verifier v;
  EXPECT_TRUE(v.verify(encoded, "pw"));
  EXPECT_FALSE(v.verify(encoded, "pW"));
  EXPECT_EQ(v.count(), 2u);
  EXPECT_NE(cache_key("ab", "c"), cache_key("a", "bc"));
}

}  // namespace
