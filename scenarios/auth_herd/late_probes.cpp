#include "late_probes.hpp"

#include <chrono>
#include <condition_variable>
#include <latch>
#include <mutex>
#include <thread>
#include <utility>

#include "probes.hpp"

namespace auth_herd {
namespace {
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::string ask(Authenticator& auth, const std::string& user, const std::string& password) {
  try {
    return answer_text(auth.authenticate(user, password));
  } catch (const std::exception&) {
    return "error";
  }
}

// The mixed herd: caller 0 (the racer's right password) leads and is held in its verification;
// callers 1..kReleased, wrong and right passwords alternating, are then released together. The
// held verification goes on when each of them has answered or joined a flight (bounded wait).
std::vector<LateAnswer> mixed_herd(Authenticator& auth, Verifier& verifier, const nlohmann::json& racer,
                                   const std::function<std::uint64_t()>& joined) {
  constexpr int kReleased = 5;
  const std::string user = racer.at("user"), right = racer.at("password"), wrong = racer.at("wrong_password");
  const std::string id = answer_text(racer.at("user_id").get<UserId>());
  std::mutex m;
  std::condition_variable cv;
  bool held = false, in_air = false;
  int answered = 0;
  const std::uint64_t joined0 = joined();
  verifier.before_verify = [&] {
    std::unique_lock lock(m);
    if (held) return;  // only the first verification (caller 0's) is held
    held = in_air = true;
    cv.notify_all();
    const auto deadline = Clock::now() + 10s;
    while (answered + static_cast<int>(joined() - joined0) < kReleased && Clock::now() < deadline)
      cv.wait_for(lock, 200us);
  };
  std::vector<std::string> got(kReleased + 1);
  auto password_of = [&](int i) { return i % 2 == 0 ? right : wrong; };
  bool leader_done = false;  // an authenticator that answers without verifying never holds
  std::thread leader([&] {
    std::string a = ask(auth, user, right);
    std::lock_guard lock(m);
    got[0] = std::move(a);
    leader_done = true;
    cv.notify_all();
  });
  {
    std::unique_lock lock(m);
    cv.wait_for(lock, 10s, [&] { return in_air || leader_done; });
  }
  std::latch go(1);
  std::vector<std::thread> callers;
  for (int i = 1; i <= kReleased; ++i)
    callers.emplace_back([&, i] {
      go.wait();
      got[static_cast<std::size_t>(i)] = ask(auth, user, password_of(i));
      std::lock_guard lock(m);
      ++answered;
    });
  go.count_down();
  for (auto& t : callers) t.join();
  leader.join();
  verifier.before_verify = nullptr;
  std::vector<LateAnswer> out;
  for (int i = 0; i <= kReleased; ++i)
    out.push_back({"racer caller " + std::to_string(i) + (i % 2 == 0 ? " right" : " wrong") + " password",
                   got[static_cast<std::size_t>(i)], i % 2 == 0 ? id : "denied"});
  return out;
}

// The revokee's verification held in the air while the user is removed and revoked.
std::vector<LateAnswer> revoked_in_flight(Authenticator& auth, Verifier& verifier, UserStore& store,
                                          const nlohmann::json& revokee) {
  const std::string user = revokee.at("user"), password = revokee.at("password");
  std::mutex m;
  std::condition_variable cv;
  bool held = false, released = false, done = false;
  verifier.before_verify = [&] {
    std::unique_lock lock(m);
    if (std::exchange(held, true)) return;
    cv.notify_all();
    cv.wait_for(lock, 10s, [&] { return released; });
  };
  std::string first;
  std::thread caller([&] {
    std::string a = ask(auth, user, password);
    std::lock_guard lock(m);
    first = std::move(a);
    done = true;
    cv.notify_all();
  });
  {  // bounded: an authenticator that answers without verifying never holds
    std::unique_lock lock(m);
    cv.wait_for(lock, 10s, [&] { return held || done; });
  }
  store.remove(user);
  auth.revoke(user);
  {
    std::lock_guard lock(m);
    released = true;
  }
  cv.notify_all();
  caller.join();
  verifier.before_verify = nullptr;
  return {{"revokee in flight", first, answer_text(revokee.at("user_id").get<UserId>())},
          {"revokee after revocation", ask(auth, user, password), "denied"}};
}

}  // namespace

std::vector<LateAnswer> late_probes(Authenticator& auth, Verifier& verifier, UserStore& store,
                                    const nlohmann::json& herd, const std::function<std::uint64_t()>& joined) {
  auto out = mixed_herd(auth, verifier, herd.at("racer"), joined);
  for (auto& a : revoked_in_flight(auth, verifier, store, herd.at("revokee"))) out.push_back(std::move(a));
  const nlohmann::json& broken = herd.at("broken");
  out.push_back({"broken stored hash", ask(auth, broken.at("user"), broken.at("password")), "error"});
  return out;
}

}  // namespace auth_herd
