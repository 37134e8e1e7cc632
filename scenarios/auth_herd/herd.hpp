// A herd: K callers with the same credentials, released together on one authenticator.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth_cache.hpp"

namespace auth_herd {

struct Answer {
  std::optional<UserId> user_id;  // nullopt: denied
  std::string error;              // set when authenticate() threw
};

struct HerdResult {
  std::vector<Answer> answers;  // in caller order
  double wall_ms = 0;           // release to the last answer
  double cpu_ms = 0;            // process CPU (every thread) over the same window
};

// `early_clock` is AFTER's lie "early-herd-clock" only: the herd's clocks stop once every
// caller is inside authenticate() (the herd dispatched), before the last one is answered.
HerdResult run_herd(Authenticator& auth, const std::string& user, const std::string& password, int callers,
                    bool early_clock = false);

// "caller 3 user_id=42" / "caller 3 denied" / "caller 3 error=..."
std::string describe(int caller, const Answer& answer);

}  // namespace auth_herd
