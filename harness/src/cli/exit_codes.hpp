// The exit codes every command can return, in its --help: one table of their meanings
// (common/errors.hpp's codes) and one list per command, so `perfgate X --help` says what a CI
// step must expect of X.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace perfgate::cli {

// "Exit codes: 0 every gate passed; 1 …" for the codes `command` can return ("" = all of them).
std::string exit_codes_text(const std::string& command);

// Sets each registered command's --help footer to its exit codes.
void list_exit_codes(CLI::App& app);

}  // namespace perfgate::cli
