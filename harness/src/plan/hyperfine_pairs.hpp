// `perfgate ab`'s commands as hyperfine takes them — positional commands against a reference,
// names, per-command options, parameter scans and lists — resolved into the pairs of the family
// (plan/ab_plan.hpp): each command against the reference, for every combination of the
// parameters, with each command's own options as values.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plan/ab_plan.hpp"

namespace perfgate::plan {

struct HyperfineCommands {
  std::vector<std::string> commands;  // positional: CMD1 CMD2 …
  std::string reference, reference_name;
  std::vector<std::string> names;                      // --command-name, once per command
  std::vector<std::string> prepare, conclude, output;  // once for all commands, or once per command
  std::string setup, cleanup, input;
  bool show_output = false;
  std::vector<std::string> scan;   // VAR MIN MAX
  std::string step;                // -D
  std::vector<std::string> lists;  // VAR VALUES, VAR VALUES, …
  std::optional<std::string> ignore_failure;
};

// The pairs to run: --before/--after (one pair), or the positional commands against the
// reference (--reference CMD, else the first), times every combination of the parameters.
// `words` turns a command into argv (split, or through the shell). Throws UsageError.
std::vector<AbPair> hyperfine_pairs(const HyperfineCommands& commands, const std::string& before,
                                    const std::string& after, const std::string& name,
                                    const std::function<std::vector<std::string>(const std::string&)>& words);

}  // namespace perfgate::plan
