// How a user's command is sampled beyond the scenario contract (`perfgate ab`, hyperfine's
// options): where its stdout goes (--output), what it reads (--input), which exit codes are not
// failures (--ignore-failure) and the unmeasured commands around its runs (--prepare,
// --conclude, --setup, --cleanup). Values, parsed once from the command line; planning keeps
// them (plan::AbSideOptions) and the runner takes them as they are (run/ab_sampling.hpp).
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "perfgate/enum_names.hpp"

namespace perfgate::catalog {

enum class StdoutKind { Contract, Null, Pipe, Inherit, File };
constexpr auto names(StdoutKind) {
  return in_declaration_order<StdoutKind>({"file", "null", "pipe", "inherit", "a file"});
}

struct StdoutTarget {
  using Kind = StdoutKind;
  Kind kind = Kind::Contract;  // Contract: a file of the sample's, hashed or parsed after it
  std::filesystem::path file;  // Kind::File
  // The timed run's own stdout is hashed (Contract, Pipe, File); Null and Inherit need digest runs.
  bool hashed_when_timed() const { return kind == Kind::Contract || kind == Kind::Pipe || kind == Kind::File; }
  std::string describe() const;  // "null", "pipe", "inherit", the file
};

// "null" | "pipe" | "inherit" | a file (hyperfine's WHERE). Throws UsageError on an empty one.
StdoutTarget parse_stdout_target(const std::string& where);

struct CommandSampling {
  StdoutTarget output;
  std::filesystem::path input;  // empty: /dev/null
  // Shell commands (sh -c, in the variant's folder, unmeasured); empty: none.
  std::string prepare, conclude;  // before and after each run of the variant
  std::string setup, cleanup;     // once, before its first run and after its last
  // Exit codes that are not failures: none (the default: any non-zero exit is); an empty set
  // with ignore_all: every one.
  std::set<int> ignored_exits;
  bool ignore_all_exits = false;
  // The -P/-L values substituted into this command, as hyperfine's export names them: a
  // one-command scan's BEFORE has its own value, not its AFTER's.
  std::map<std::string, std::string> parameters;
  bool ignores(int exit_code) const { return ignore_all_exits || ignored_exits.count(exit_code) > 0; }
};

// hyperfine's --ignore-failure value into `sampling`: "all-non-zero" (or empty) ignores every
// non-zero exit, "1,2" those codes. Throws UsageError naming a code that is not one.
void parse_ignore_failure(const std::string& value, CommandSampling& sampling);

}  // namespace perfgate::catalog
