// For tests: what a refusal says, so a test can hold the message to the field it must name.
#pragma once

#include <functional>
#include <string>

#include "common/errors.hpp"

namespace perfgate {

// The message of the UsageError `act` throws, or "" when it throws none.
inline std::string usage_error_of(const std::function<void()>& act) {
  try {
    act();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace perfgate
