// Where a command's program is: argv[0] as given when it has a slash, else looked up on PATH.
// Plans resolve programs before anything runs, so a missing one is exit 2 with nothing written.
#pragma once

#include <string>

namespace perfgate {

// Throws UsageError naming the program when it is missing or not executable.
std::string resolve_program(const std::string& name);

}  // namespace perfgate
