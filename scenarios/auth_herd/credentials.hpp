// auth_herd: Argon2id credentials (libargon2), the user store, and the verification counter.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>

namespace auth_herd {

using UserId = std::int64_t;

struct Argon2Params {
  std::uint32_t m_kib = 65536;  // memory cost
  std::uint32_t t = 3;          // passes
  std::uint32_t p = 2;          // lanes (and threads)
};

// A PHC-encoded Argon2id hash ($argon2id$v=19$m=..,t=..,p=..$salt$hash) of `password`.
std::string hash_password(std::string_view password, std::span<const std::uint8_t> salt, const Argon2Params& params);

// Runs Argon2id verifications and counts them. Thread-safe.
class Verifier {
 public:
  // true: the password matches; false: it does not. Throws on any other libargon2 error
  // (a malformed stored hash, out of memory): an error, never a "no".
  bool verify(const std::string& encoded, std::string_view password);
  std::uint64_t count() const { return count_.load(); }

  // Test-only: runs at the start of every verification (to hold a herd in place).
  std::function<void()> before_verify;

  // AFTER's lie "cache-file" only (set by make_after): verified successes remembered in this
  // file, beyond the process, and answered from it without Argon2id. Empty: off.
  std::filesystem::path remembered_in;

 private:
  bool remembered(const std::string& key);
  void remember(const std::string& key);

  std::atomic<std::uint64_t> count_{0};
  std::mutex remembered_mutex_;
};

struct User {
  UserId id = 0;
  std::string name;
  std::string encoded;  // Argon2id
};

// The users and their stored credentials. Thread-safe.
class UserStore {
 public:
  UserStore() = default;
  UserStore(UserStore&& other) noexcept : users_(std::move(other.users_)) {}  // not while in use
  void put(User user);
  bool remove(const std::string& name);
  std::optional<User> find(std::string_view name) const;
  std::size_t size() const;

  // The fixture format: one user a line, "id<TAB>name<TAB>encoded".
  static UserStore load(const std::filesystem::path& file);
  void save(const std::filesystem::path& file) const;

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, User, std::less<>> users_;
};

}  // namespace auth_herd
