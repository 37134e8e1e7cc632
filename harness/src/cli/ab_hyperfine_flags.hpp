// The options of `perfgate ab` that hyperfine users bring, with the names and meanings of
// hyperfine's current release (1.20; docs/hyperfine.md maps every one), and what they resolve
// into: the pairs of the family (plan/ab_plan.hpp) and each command's own options. `ab`'s own
// flags (cmd_ab.cpp) and later ones (--mask, --check) sit beside these, not in them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plan/hyperfine_pairs.hpp"

namespace perfgate::cli {

// Registers hyperfine's options on `ab`; --runs, -m, -M, --time-unit and the exports set `options`.
void add_hyperfine_flags(CLI::App* cmd, plan::HyperfineCommands& commands, plan::RunOptions& options);

}  // namespace perfgate::cli
