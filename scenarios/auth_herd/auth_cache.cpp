// The parts both variants share: the cache key, the cache, the slow path.
#include "auth_cache.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace auth_herd {

CacheKey cache_key(std::string_view user, std::string_view password) {
  CacheKey key{};
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  const char nul = '\0';
  unsigned int len = 0;
  const bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) == 1 &&
                  EVP_DigestUpdate(ctx, user.data(), user.size()) == 1 && EVP_DigestUpdate(ctx, &nul, 1) == 1 &&
                  EVP_DigestUpdate(ctx, password.data(), password.size()) == 1 &&
                  EVP_DigestFinal_ex(ctx, key.data(), &len) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok || len != key.size()) throw std::runtime_error("OpenSSL: SHA-256 failed");
  return key;
}

std::optional<UserId> CredentialCache::get(const CacheKey& key) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  if (std::chrono::steady_clock::now() >= it->second.expires) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.id;
}

std::uint64_t CredentialCache::epoch(const std::string& user) {
  std::lock_guard lock(mutex_);
  const auto it = epochs_.find(user);
  return it == epochs_.end() ? 0 : it->second;
}

void CredentialCache::put(const CacheKey& key, const std::string& user, UserId id, std::uint64_t epoch) {
  std::lock_guard lock(mutex_);
  const auto it = epochs_.find(user);
  if ((it == epochs_.end() ? 0 : it->second) != epoch) return;  // revoked while verifying
  entries_[key] = Entry{id, user, std::chrono::steady_clock::now() + ttl_};
}

std::size_t CredentialCache::revoke(const std::string& user) {
  std::lock_guard lock(mutex_);
  ++epochs_[user];
  return std::erase_if(entries_, [&](const auto& kv) { return kv.second.user == user; });
}

std::size_t CredentialCache::size() {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::optional<UserId> Authenticator::verify_and_cache(const CacheKey& key, std::string_view user,
                                                      std::string_view password) {
  const std::string name(user);
  const std::uint64_t epoch = cache_.epoch(name);
  const auto stored = look_up(name);
  if (!stored) return std::nullopt;
  if (!accepts(*stored, password)) return std::nullopt;
  cache_.put(key, name, stored->id, epoch);
  return stored->id;
}

std::unique_ptr<Authenticator> make_authenticator(const std::string& variant, const UserStore& users,
                                                  Verifier& verifier, CredentialCache& cache, const std::string& lie) {
  if (variant == "before") return make_before(users, verifier, cache);
  if (variant == "after") return make_after(users, verifier, cache, lie);
  throw std::runtime_error("unknown variant '" + variant + "': expected before or after");
}

}  // namespace auth_herd
