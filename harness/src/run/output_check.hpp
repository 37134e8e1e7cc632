// `perfgate ab --check CMD`: the user's own judgement of whether two outputs are the same work,
// for programs whose outputs differ in ways no mask describes (a float printed to the last
// digit, rows in an order that does not matter). CMD gets the two outputs as files, unmasked:
// exit 0 says they are the same work, any other exit says they are not.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace perfgate::run {

struct CheckVerdict {
  bool same = false;
  std::string how;  // "exit 0", "exit 1: <what it printed>", "timed out after 60 s", ...
};

// Runs `check_argv` + {reference, other} (argv[0] looked up on PATH), its stdout and stderr into
// `scratch`; killed after `timeout_s`. Throws RunError when it cannot start.
CheckVerdict check_outputs(const std::vector<std::string>& check_argv, const std::filesystem::path& reference,
                           const std::filesystem::path& other, const std::filesystem::path& scratch,
                           double timeout_s = 60);

}  // namespace perfgate::run
