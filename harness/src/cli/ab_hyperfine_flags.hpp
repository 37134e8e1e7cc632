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

#include "plan/ab_plan.hpp"

namespace perfgate::cli {

struct HyperfineFlags {
  std::vector<std::string> commands;  // positional: CMD1 CMD2 …
  std::string reference, reference_name;
  std::vector<std::string> names;                      // --command-name, once per command
  std::vector<std::string> prepare, conclude, output;  // once for all commands, or once per command
  std::string setup, cleanup, input;
  bool show_output = false;
  std::vector<std::string> scan;   // VAR MIN MAX
  std::string step;                // -D
  std::vector<std::string> lists;  // VAR VALUES, VAR VALUES, …
  std::string time_unit;           // empty: chosen per table
  std::optional<std::string> ignore_failure;
  std::string export_markdown, export_csv;
};

// Registers hyperfine's options on `ab`; --runs, -m, -M and --export-json set `options`.
void add_hyperfine_flags(CLI::App* cmd, HyperfineFlags& flags, plan::RunOptions& options);

// The pairs to run: --before/--after (one pair), or the positional commands against the
// reference (--reference CMD, else the first), times every combination of the parameters.
// `words` turns a command into argv (split, or through the shell). Throws UsageError.
std::vector<plan::AbPair> hyperfine_pairs(const HyperfineFlags& flags, const std::string& before,
                                          const std::string& after, const std::string& name,
                                          const std::function<std::vector<std::string>(const std::string&)>& words);

}  // namespace perfgate::cli
