// The stdout of a short command (git rev-parse, pg_config --bindir, postgres --version),
// started through spawn() like every other child: no shell, no popen.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::process {

// Runs argv (argv[0] looked up on PATH when it has no slash) with stdin and stderr on
// /dev/null. nullopt when it cannot start, exits non-zero, dies or outlives `timeout`
// (then it is killed). `env` empty: our environment.
std::optional<std::string> capture_stdout(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                                          const std::filesystem::path& cwd = {},
                                          const std::vector<std::string>& env = {});

}  // namespace perfgate::process
