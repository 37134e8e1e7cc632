// The untimed probes after the warm phase (late_probes.cpp): questions about races and bad
// stored data that a single-flight shortcut answers wrongly, each on a cheap-hash fixture user
// (herd.json's "racer", "revokee" and "broken"), so they cost microseconds:
//   - a mixed herd on the cold racer: its right password's verification held in the air
//     (Verifier::before_verify) until every other caller, right or wrong password, has joined a
//     flight or answered; each wrong one must be denied, each right one get the racer's id (a
//     flight keyed by the user alone hands the wrong ones its success);
//   - the revokee's verification held in the air while the user is removed and revoked, then
//     released: the caller in the air gets its id (it verified a record read before), the next
//     ask must be denied (a flight that caches without the epoch check keeps answering);
//   - the broken user, whose stored hash libargon2 cannot decode: an error, never a denial.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "auth_cache.hpp"

namespace auth_herd {

// What a late probe asked, what it got and what it should have got: "user_id=N", "denied" or
// "error" (authenticate() threw).
struct LateAnswer {
  std::string label, got, expected;
};

// `joined`: how many callers have joined another caller's flight so far (after::coalesced for
// AFTER, 0 for BEFORE): the mixed herd's held verification waits for it. Leaves
// verifier.before_verify unset. `store` is the store `auth` verifies against.
std::vector<LateAnswer> late_probes(Authenticator& auth, Verifier& verifier, UserStore& store,
                                    const nlohmann::json& herd, const std::function<std::uint64_t()>& joined);

// The broken user's stored hash: Argon2id's PHC prefix, then a salt and a hash that are not base64.
inline constexpr const char* kMalformedHash = "$argon2id$v=19$m=8,t=1,p=1$not*base64$not*base64";

}  // namespace auth_herd
