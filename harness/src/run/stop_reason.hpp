// Why a scenario's rounds stopped: the kind, which code decides on, and the words beside it,
// which people read (results.json keeps only the words: `stop.reason`, docs/results-schema.md).
// Each kind's words begin with its name, so a reason read back from a file names its kind
// (kind_of_reason), and the words are made here only.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "perfgate/enum_names.hpp"

namespace perfgate::run {

enum class StopKind {
  ClearAtLook,
  FailedAtLook,
  Undecided,
  MaxTime,
  MaxRounds,
  Repetitions,
  EquivalenceFailed,
  Error,
  Interrupted
};
constexpr auto names(StopKind) {
  return in_declaration_order<StopKind>({"clear at look", "failed at look", "undecided after round", "max time",
                                         "max rounds", "repetitions", "equivalence failed", "error", "interrupted"});
}

struct StopReason {
  StopKind kind = StopKind::MaxRounds;
  std::string text;

  // "clear at look 2 (round 16)"
  static StopReason clear_at_look(int look, int round) {
    return {StopKind::ClearAtLook,
            said(StopKind::ClearAtLook, std::to_string(look) + " (round " + std::to_string(round) + ")")};
  }
  // "failed at look 1 (round 10): a gate had decided against AFTER" — more rounds could not turn
  // the scenario green, so none were taken (--decide-all takes them).
  static StopReason failed_at_look(int look, int round) {
    return {StopKind::FailedAtLook,
            said(StopKind::FailedAtLook,
                 std::to_string(look) + " (round " + std::to_string(round) + "): a gate had decided against AFTER")};
  }
  // "undecided after round 40: more rounds would not fit the 50 s budget"
  static StopReason undecided(int round, const std::string& budget_s) {
    return {StopKind::Undecided, said(StopKind::Undecided, std::to_string(round) + ": more rounds would not fit the " +
                                                               budget_s + " s budget")};
  }
  // "max time (60 s) after round 12"
  static StopReason max_time(int seconds, int round) {
    return {StopKind::MaxTime,
            said(StopKind::MaxTime, "(" + std::to_string(seconds) + " s) after round " + std::to_string(round))};
  }
  // "max rounds (30)"
  static StopReason max_rounds(int rounds) {
    return {StopKind::MaxRounds, said(StopKind::MaxRounds, "(" + std::to_string(rounds) + ")")};
  }
  // "repetitions", "equivalence failed", "error", "interrupted": the kind's name alone.
  static StopReason plain(StopKind kind) { return {kind, std::string(name_of(kind))}; }

  // The kind whose name `text` begins with (a reason read back from a results file); none for
  // words no kind begins with.
  static std::optional<StopKind> kind_of_reason(std::string_view text) {
    for (const auto& [kind, name] : names(StopKind{}))
      if (text.substr(0, name.size()) == name) return kind;
    return std::nullopt;
  }

 private:
  static std::string said(StopKind kind, const std::string& rest) { return std::string(name_of(kind)) + " " + rest; }
};

}  // namespace perfgate::run
