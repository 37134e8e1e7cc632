// The warm phase's probes: questions asked between the timed batches of warm hits, each one a
// cache shortcut would answer wrongly, so the digest (and the program's own check) sees it:
//   - an unknown user ("nobody") with the herd's password: denied (a cache answering without
//     its key hands it a user id);
//   - the herd user's name in upper case with the herd's password: denied (user names are
//     case-sensitive; a case-folded key answers it from user03's entry);
//   - the probe user, cached with its right password, asked with a wrong one: denied (a key
//     without the password accepts any password of a cached user);
//   - the leaver, cached with its right password, then removed from the store and revoked half
//     way through the warm phase: its id before, denied after (a revocation that drops
//     nothing keeps answering).
// The probe users' hashes are cheap (8 KiB, one pass), so a probe that verifies costs
// microseconds, not a herd verification: the herd's figures do not move.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "auth_cache.hpp"

namespace auth_herd {

// What a probe asked, what it got and what it should have got.
struct ProbeAnswer {
  std::string label;  // "nobody", "USER03", "probe wrong password", "leaver"
  std::optional<UserId> got, expected;
};

class Probes {
 public:
  // `herd`: the fixture's herd.json; `store` is the store `auth` verifies against (the leaver
  // is removed from it at the revocation).
  Probes(Authenticator& auth, UserStore& store, const nlohmann::json& herd);
  // Caches the probe user and the leaver (their right passwords): what the probes ask about.
  std::vector<ProbeAnswer> prime();
  // The probes after warm batch `batch` of `batches`; the leaver is revoked before the probes
  // of batch batches / 2 (when there are two batches or more).
  std::vector<ProbeAnswer> after_batch(int batch, int batches);
  bool revoked() const { return revoked_; }

 private:
  ProbeAnswer ask(std::string label, const std::string& user, const std::string& password,
                  std::optional<UserId> expected);

  Authenticator& auth_;
  UserStore& store_;
  std::string herd_user_, herd_password_;
  std::string probe_user_, probe_password_, probe_wrong_password_;
  UserId probe_id_;
  std::string leaver_, leaver_password_;
  UserId leaver_id_;
  bool revoked_ = false;
};

// "user_id=2000" or "denied".
std::string answer_text(const std::optional<UserId>& a);

// The probe users' Argon2id cost: a probe that verifies costs a few microseconds.
inline constexpr Argon2Params kProbeArgon2{8, 1, 1};  // libargon2's least: 8 KiB a lane

}  // namespace auth_herd
