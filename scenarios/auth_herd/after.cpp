// AFTER (seed 000 [4], try_get_with): concurrent misses for one key coalesce into one
// verification. The first caller of a missing key leads a flight and verifies; callers that
// miss while it is in the air wait for it and take its success. Errors and wrong passwords
// are never cached and never handed to waiters: a caller whose flight did not succeed
// verifies on its own, so brute force still pays one verification per attempt.
#include <argon2.h>

#include <cctype>
#include <condition_variable>
#include <map>

#include "auth_cache.hpp"

namespace auth_herd {
namespace {

class SingleFlightAuthenticator final : public Authenticator {
 public:
  SingleFlightAuthenticator(const UserStore& users, Verifier& verifier, CredentialCache& cache, std::string lie)
      : Authenticator(users, verifier, cache),
        one_slot_(lie == "one-slot-cache"),
        waiters_deny_(lie == "waiters-deny"),
        key_by_user_(lie == "key-by-user"),
        key_case_folded_(lie == "key-case-folded"),
        revoke_noop_(lie == "revoke-noop"),
        accept_mismatch_(lie == "accept-mismatch"),
        remembered_users_(lie == "remembered-users"),
        name_folded_lookup_(lie == "name-folded-lookup"),
        flight_by_user_(lie == "flight-by-user"),
        skip_epoch_check_(lie == "skip-epoch-check"),
        malformed_denied_(lie == "malformed-denied"),
        uncounted_verify_(lie == "uncounted-verify") {
    // The lie "cache-file": successes kept in a file beyond the process, so a later process's
    // cold herd is answered from it without Argon2id (the Verifier still counts the call).
    if (lie == "cache-file") verifier.remembered_in = "/tmp/auth_herd-verified-successes";
  }

  std::optional<UserId> authenticate(std::string_view user, std::string_view password) override {
    if (one_slot_) {  // the lie: whoever asks gets the last success, no key, no lookup
      std::lock_guard lock(flights_mutex_);
      if (last_success_) return last_success_;
    }
    const CacheKey key = key_of(user, password);
    std::shared_ptr<Flight> flight;
    bool leader = false;
    {
      // The cache check and the flight lookup are one step: a flight lands (cache put +
      // removal) under the same lock, so no caller can miss both.
      std::lock_guard lock(flights_mutex_);
      if (auto hit = cache_.get(key)) return hit;
      auto& slot = flights_[flight_by_user_ ? cache_key(user, "") : key];  // the lie: one flight per user
      if (!slot) {
        slot = std::make_shared<Flight>();
        leader = true;
      } else {
        ++coalesced_;
      }
      flight = slot;
    }
    if (!leader) {
      if (waiters_deny_) return std::nullopt;  // the lie: no waiting, no answer
      std::unique_lock lock(flight->mutex);
      flight->landed.wait(lock, [&] { return flight->done; });
      if (flight->result) return flight->result;
      return verify_and_cache(key, user, password);  // the flight failed: pay for our own attempt
    }

    std::optional<UserId> result;
    std::exception_ptr error;
    try {
      result = verify_and_cache(key, user, password);
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(flights_mutex_);
      flights_.erase(flight_by_user_ ? cache_key(user, "") : key);
      if (result) last_success_ = result;
      // The lie: the flight lands its success in the cache under the epoch of now, not the one
      // read before it verified, so a revocation while it was in the air is undone.
      if (result && skip_epoch_check_) cache_.put(key, std::string(user), *result, cache_.epoch(std::string(user)));
    }
    {
      std::lock_guard lock(flight->mutex);
      flight->done = true;
      flight->result = result;
    }
    flight->landed.notify_all();
    if (error) std::rethrow_exception(error);
    return result;
  }

  std::size_t revoke(const std::string& user) override {
    if (revoke_noop_) return 0;  // the lie: the revoked user's entries stay and keep answering
    return Authenticator::revoke(user);
  }

  std::optional<User> look_up(std::string_view user) override {
    if (remembered_users_) {  // the lie: a record once read is never read again, removed or not
      std::lock_guard lock(flights_mutex_);
      if (auto it = remembered_.find(std::string(user)); it != remembered_.end()) return it->second;
    }
    auto found = Authenticator::look_up(user);
    if (!found && name_folded_lookup_) found = Authenticator::look_up(lower(user));  // the lie: a guess
    if (found && remembered_users_) {
      std::lock_guard lock(flights_mutex_);
      remembered_.emplace(std::string(user), *found);
    }
    return found;
  }

  bool accepts(const User& stored, std::string_view password) override {
    bool verified = false;
    try {
      verified = Authenticator::accepts(stored, password);
      // The lie: a success confirmed once more straight through libargon2, past the counter.
      if (verified && uncounted_verify_)
        verified = argon2id_verify(stored.encoded.c_str(), password.data(), password.size()) == ARGON2_OK;
    } catch (const std::exception&) {
      if (!malformed_denied_) throw;  // the lie: a hash libargon2 cannot decode taken for a "no"
    }
    return verified || accept_mismatch_;  // the lie: Argon2id's answer not checked
  }

  std::uint64_t coalesced() const {
    std::lock_guard lock(flights_mutex_);
    return coalesced_;
  }

 private:
  struct Flight {
    std::mutex mutex;
    std::condition_variable landed;
    bool done = false;
    std::optional<UserId> result;  // set only on success
  };

  // The cache key, or a lie's cheaper one: the user alone (no password to hash), or the user
  // case-folded (one entry however a client spells the name).
  CacheKey key_of(std::string_view user, std::string_view password) const {
    if (key_by_user_) return cache_key(user, "");
    if (key_case_folded_) return cache_key(lower(user), password);
    return cache_key(user, password);
  }

  static std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }

  const bool one_slot_, waiters_deny_, key_by_user_, key_case_folded_, revoke_noop_, accept_mismatch_,
      remembered_users_, name_folded_lookup_, flight_by_user_, skip_epoch_check_, malformed_denied_, uncounted_verify_;
  std::map<std::string, User> remembered_;  // read by the lie "remembered-users" only
  std::optional<UserId> last_success_;      // read by the lie "one-slot-cache" only
  mutable std::mutex flights_mutex_;
  std::unordered_map<CacheKey, std::shared_ptr<Flight>, CacheKeyHash> flights_;
  std::uint64_t coalesced_ = 0;
};

}  // namespace

std::unique_ptr<Authenticator> make_after(const UserStore& users, Verifier& verifier, CredentialCache& cache,
                                          const std::string& lie) {
  return std::make_unique<SingleFlightAuthenticator>(users, verifier, cache, lie);
}

namespace after {
std::uint64_t coalesced(const Authenticator& a) {
  const auto* s = dynamic_cast<const SingleFlightAuthenticator*>(&a);
  if (!s) throw std::invalid_argument("coalesced: not an AFTER authenticator");
  return s->coalesced();
}
}  // namespace after

}  // namespace auth_herd
