// What each exit code means (errors.hpp's codes) and which of them each command can return, in
// one table: every command's --help lists its own, so a CI step knows what to expect of it.
#pragma once

#include <string>

namespace perfgate {

// "Exit codes: 0 every gate passed; 1 …" for the codes `command` can return ("" = all of them).
std::string exit_codes_text(const std::string& command);

}  // namespace perfgate
