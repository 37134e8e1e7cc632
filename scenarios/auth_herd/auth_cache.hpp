// auth_herd (seed 000 [4]): a credential cache in front of Argon2id verification.
// BEFORE (before.cpp) and AFTER (after.cpp) are two Authenticators over the same cache.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "credentials.hpp"

namespace auth_herd {

// The cache key: SHA-256 of user NUL password (the password itself is never kept).
using CacheKey = std::array<std::uint8_t, 32>;
CacheKey cache_key(std::string_view user, std::string_view password);

struct CacheKeyHash {
  std::size_t operator()(const CacheKey& k) const noexcept {
    std::size_t h;
    static_assert(sizeof h <= sizeof(CacheKey));
    __builtin_memcpy(&h, k.data(), sizeof h);
    return h;
  }
};

// Successful authentications only, with a time to live, and revocation by user. Each user
// has an epoch, bumped by revoke(): a verification that started before a revocation does not
// put its (stale) success into the cache. Thread-safe.
class CredentialCache {
 public:
  explicit CredentialCache(std::chrono::steady_clock::duration ttl = std::chrono::seconds(300)) : ttl_(ttl) {}

  std::optional<UserId> get(const CacheKey& key);
  std::uint64_t epoch(const std::string& user);
  // Caches a success, unless `user` was revoked since `epoch` was read.
  void put(const CacheKey& key, const std::string& user, UserId id, std::uint64_t epoch);
  // Drops every entry of `user` (the write-up's invalidate_entries_if).
  std::size_t revoke(const std::string& user);
  std::size_t size();

 private:
  struct Entry {
    UserId id;
    std::string user;
    std::chrono::steady_clock::time_point expires;
  };
  std::chrono::steady_clock::duration ttl_;
  std::mutex mutex_;
  std::unordered_map<CacheKey, Entry, CacheKeyHash> entries_;
  std::unordered_map<std::string, std::uint64_t> epochs_;
};

class Authenticator {
 public:
  Authenticator(const UserStore& users, Verifier& verifier, CredentialCache& cache)
      : users_(users), verifier_(verifier), cache_(cache) {}
  virtual ~Authenticator() = default;

  // The user id when `password` is right for `user`; nullopt when it is not (or no such
  // user). Throws on a verification error. Never caches anything but a success.
  virtual std::optional<UserId> authenticate(std::string_view user, std::string_view password) = 0;

  // Drops the cached entries of `user` (after a password change or a revocation).
  virtual std::size_t revoke(const std::string& user) { return cache_.revoke(user); }
  CredentialCache& cache() { return cache_; }

 protected:
  // The slow path both variants share: look the user up, verify with Argon2id, and cache a
  // success (unless the user was revoked meanwhile).
  std::optional<UserId> verify_and_cache(const CacheKey& key, std::string_view user, std::string_view password);
  // The slow path's two checks, honest here; AFTER's lies override them.
  virtual std::optional<User> look_up(std::string_view user) { return users_.find(user); }
  virtual bool accepts(const User& stored, std::string_view password) {
    return verifier_.verify(stored.encoded, password);
  }

  const UserStore& users_;
  Verifier& verifier_;
  CredentialCache& cache_;
};

// BEFORE: a miss verifies on its own; K concurrent misses for one key make K verifications.
std::unique_ptr<Authenticator> make_before(const UserStore& users, Verifier& verifier, CredentialCache& cache);
// AFTER: concurrent misses for one key coalesce into one verification (single flight); the
// waiters take its success. A failure is never shared nor cached: each caller whose flight
// did not succeed verifies on its own, so a wrong password costs every caller a verification.
//
// `lie` (the manifest's lies; each does less than BEFORE): "one-slot-cache" answers every
// caller from the last success, skipping the key hash and the lookup (a caller of another
// user gets this user's id); "waiters-deny" has callers that find a flight in the air answer
// "denied" at once instead of waiting for it; "key-by-user" keys the cache by the user alone
// (once a user's password is cached, any password is accepted); "key-case-folded" keys it by
// the lower-cased user name ("USER03" gets user03's entry); "revoke-noop" drops nothing on a
// revocation (a revoked user's cached success keeps answering); "accept-mismatch" verifies but
// answers the user's id whatever Argon2id says (a wrong password is accepted); "remembered-users"
// keeps every user record it looked up and never asks the store again (a removed account still
// verifies); "name-folded-lookup" looks an unknown name up lower-cased (USER03, no such user, is
// taken for user03); "flight-by-user" keys the flights by the user alone (a wrong password that
// misses while the right one is verifying waits and takes its success); "skip-epoch-check" has
// a landing flight cache its success under the epoch of now (a revocation while it verified is
// undone); "malformed-denied" answers a stored hash libargon2 cannot decode as a denial;
// "uncounted-verify" confirms each success with one more Argon2id verification past the
// Verifier's counter; "cache-file" keeps its successes in a file beyond the process (a later
// process's cold herd answers from it without Argon2id, each answer still counted as a call).
std::unique_ptr<Authenticator> make_after(const UserStore& users, Verifier& verifier, CredentialCache& cache,
                                          const std::string& lie = "");
std::unique_ptr<Authenticator> make_authenticator(const std::string& variant, const UserStore& users,
                                                  Verifier& verifier, CredentialCache& cache,
                                                  const std::string& lie = "");

namespace after {
// How many callers joined another caller's flight instead of verifying (since construction).
std::uint64_t coalesced(const Authenticator& after_authenticator);
}  // namespace after

}  // namespace auth_herd
