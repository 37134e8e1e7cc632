// The kinds a manifest declares, as values: what a scenario is, what its policy asks of AFTER,
// what its fixture is, and how a lie must be caught. Each enum's `names` table is the one place
// its words are spelled (perfgate/enum_names.hpp); the manifest reader turns words into these
// values and the results codec turns them back, so nothing else compares the words.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/enum_names.hpp"

namespace perfgate::catalog {

// Ab is no manifest's: `perfgate ab`'s one scenario, built from the command line.
enum class ScenarioKind { Batch, Service, Gbench, Ab };
constexpr auto names(ScenarioKind) { return in_declaration_order<ScenarioKind>({"batch", "service", "gbench", "ab"}); }

// The kinds a manifest (and `perfgate new --kind`) may name.
inline std::vector<ScenarioKind> manifest_kinds() {
  return {ScenarioKind::Batch, ScenarioKind::Service, ScenarioKind::Gbench};
}

// improve: AFTER must be significantly better on the primary metric; no-regress: not worse.
enum class Policy { Improve, NoRegress };
constexpr auto names(Policy) { return in_declaration_order<Policy>({"improve", "no-regress"}); }

enum class FixtureKind { None, Files, Sqlite, Postgres };
constexpr auto names(FixtureKind) { return in_declaration_order<FixtureKind>({"none", "files", "sqlite", "postgres"}); }

// A lie's `caught_by`: "equivalence" (the run exits 3) or "exact:METRIC" (an exact count that
// differs from honest AFTER's).
struct CaughtBy {
  enum class Gate { Equivalence, Exact };
  Gate gate = Gate::Equivalence;
  std::string metric;  // Exact only

  std::string text() const { return gate == Gate::Equivalence ? "equivalence" : "exact:" + metric; }
  // None when `text` is neither form.
  static std::optional<CaughtBy> parse(std::string_view text) {
    if (text == "equivalence") return CaughtBy{};
    constexpr std::string_view exact = "exact:";
    if (text.substr(0, exact.size()) == exact && text.size() > exact.size())
      return CaughtBy{Gate::Exact, std::string(text.substr(exact.size()))};
    return std::nullopt;
  }
};

}  // namespace perfgate::catalog
