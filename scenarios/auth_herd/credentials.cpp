#include "credentials.hpp"

#include <argon2.h>

#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace auth_herd {

std::string hash_password(std::string_view password, std::span<const std::uint8_t> salt, const Argon2Params& params) {
  constexpr std::size_t kHashLen = 32;
  const std::size_t len =
      argon2_encodedlen(params.t, params.m_kib, params.p, static_cast<std::uint32_t>(salt.size()), kHashLen, Argon2_id);
  std::vector<char> encoded(len);
  const int rc = argon2id_hash_encoded(params.t, params.m_kib, params.p, password.data(), password.size(), salt.data(),
                                       salt.size(), kHashLen, encoded.data(), encoded.size());
  if (rc != ARGON2_OK) throw std::runtime_error(std::string("argon2id_hash_encoded: ") + argon2_error_message(rc));
  return encoded.data();
}

bool Verifier::verify(const std::string& encoded, std::string_view password) {
  ++count_;
  if (before_verify) before_verify();
  // The lie "cache-file": a success verified by an earlier process is taken from the file.
  const std::string key =
      remembered_in.empty() ? "" : std::to_string(std::hash<std::string>{}(encoded + '\0' + std::string(password)));
  if (!key.empty() && remembered(key)) return true;
  const int rc = argon2id_verify(encoded.c_str(), password.data(), password.size());
  if (rc == ARGON2_OK) {
    if (!key.empty()) remember(key);
    return true;
  }
  if (rc == ARGON2_VERIFY_MISMATCH) return false;
  throw std::runtime_error(std::string("argon2id_verify: ") + argon2_error_message(rc));
}

bool Verifier::remembered(const std::string& key) {
  std::lock_guard lock(remembered_mutex_);
  std::ifstream in(remembered_in);
  for (std::string line; std::getline(in, line);)
    if (line == key) return true;
  return false;
}

void Verifier::remember(const std::string& key) {
  std::lock_guard lock(remembered_mutex_);
  std::ofstream(remembered_in, std::ios::app) << key << '\n';
}

void UserStore::put(User user) {
  std::unique_lock lock(mutex_);
  std::string name = user.name;
  users_[name] = std::move(user);
}

bool UserStore::remove(const std::string& name) {
  std::unique_lock lock(mutex_);
  return users_.erase(name) != 0;
}

std::optional<User> UserStore::find(std::string_view name) const {
  std::shared_lock lock(mutex_);
  const auto it = users_.find(name);
  if (it == users_.end()) return std::nullopt;
  return it->second;
}

std::size_t UserStore::size() const {
  std::shared_lock lock(mutex_);
  return users_.size();
}

UserStore UserStore::load(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string() + ": run seed first");
  UserStore store;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    User u;
    std::string id;
    if (!std::getline(fields, id, '\t') || !std::getline(fields, u.name, '\t') || !std::getline(fields, u.encoded))
      throw std::runtime_error("malformed line in " + file.string() + ": " + line);
    u.id = std::stoll(id);
    store.put(std::move(u));
  }
  return store;
}

void UserStore::save(const std::filesystem::path& file) const {
  std::shared_lock lock(mutex_);
  std::ofstream out(file, std::ios::trunc);
  for (const auto& [name, u] : users_) out << u.id << '\t' << u.name << '\t' << u.encoded << '\n';
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace auth_herd
