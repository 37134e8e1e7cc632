// A scenario manifest (scenario.json), read and validated. Every problem is a UsageError
// naming the file and the field, so a malformed manifest exits 2 with a message a user can act on.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/kinds.hpp"
#include "catalog/threats.hpp"
#include "perfgate/enum_names.hpp"

namespace perfgate::catalog {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct Variant {
  std::string name, label;
  std::vector<std::string> args;
  std::optional<std::string> compare_to;  // the variant this one is compared with; none for a reference
  json sweep;                             // sweep coordinates (buffer size, capacity, ...) or null
  std::string workload;                   // service scenarios: which workload drives it
  std::vector<std::string> profiles;      // empty: every profile
  std::string equivalence;                // "" = digest; else an `extra` field compared instead
  bool gated() const { return name == "before" || name == "after"; }
  bool in_profile(const std::string& p) const;
};

struct Claim {
  std::string metric;
  double factor = 1;
  std::vector<std::string> profiles;  // empty: every profile
  std::string text;
};

// A metric that must not regress whatever the gated metric is (wall time by default), beyond
// a band: gating CPU alone would pass an AFTER that trades CPU for waiting.
struct Guard {
  std::string metric = "wall_ms";  // "none": no guard
  double band = 0.10;              // a fraction; the run's own noise widens it
};

// How a self-reported figure is held to the outside one (gate/self_report.hpp).
enum class SelfCheck {
  Saving,  // what AFTER says it saved shows in the outside saving (a stopwatch, a CPU account)
  Equal,   // every sample: the figure is the outside count (a request count relayed)
  Covers,  // every sample: the outside figure holds at least the figure (bytes said to be written)
};
constexpr auto names(SelfCheck) { return in_declaration_order<SelfCheck>({"saving", "equal", "covers"}); }

// A figure the program reports about itself (its own stopwatch, counter or account), believed
// only as far as perfgate sees it from outside: what AFTER says `metrics` saved against BEFORE
// (their sum, times `scale`) must show in the `outside` metric's saving within `slack` (a fraction
// of BEFORE's figure), else it is a lie (gate/self_report.hpp); or, by `check`, equal the outside
// figure or be covered by it in every sample within `slack` of it. `scale_param`: a profile param
// the sum is multiplied by too (a figure per repetition against the whole process's).
struct SelfReport {
  std::vector<std::string> metrics;
  std::string outside;
  SelfCheck check = SelfCheck::Saving;
  double scale = 1;
  std::string scale_param;
  double slack = 0.05;
  std::string text;
};

// An AFTER that does less than BEFORE on purpose (docs/scenario-contract.md, "Lies"): run only
// by `perfgate lies`, as `after` with `args` appended, and it must be caught as `caught_by`
// says (catalog/kinds.hpp).
struct Lie {
  std::string name, what;
  CaughtBy caught_by;
  std::vector<std::string> args;
};

struct Profile {
  json params = json::object();
  json load = json::object();  // service scenarios: connections, duration_s, warmup_s, ...
  std::optional<int> min_rounds, max_rounds, warmup;
  std::optional<double> max_time_s, timeout_s;
};

struct Manifest {
  fs::path file, dir;
  std::string name, title, source, summary;
  ScenarioKind kind = ScenarioKind::Batch;  // never Ab: that is `perfgate ab`'s
  std::string program;
  FixtureKind fixture_kind = FixtureKind::None;
  int fixture_version = 1;
  Policy policy = Policy::Improve;
  std::string primary_metric;
  Guard guard;
  std::string cpus = "1";  // a count or "all"
  // Counting samples beside the timed ones: "allocs" (the LD_PRELOAD interposer), "instructions"
  // (valgrind). See run/counting_sample.hpp.
  std::vector<std::string> measure;
  std::vector<Variant> variants;
  std::vector<Claim> claims;
  std::vector<SelfReport> self_reported;
  std::vector<std::string> work_counts;  // counts of the work done, equal every round (gate/work_counts.hpp)
  std::vector<Lie> lies;                 // never run by `perfgate run`
  std::vector<Threat> threats;           // what the lies are meant to cover (threats.hpp)
  json anchors = json::array();
  std::map<std::string, Profile> profiles;
  json service = json::object();
  json workloads = json::object();

  const Variant& variant(const std::string& name) const;
  std::vector<std::string> profile_names() const;
};

Manifest parse_manifest(const json& doc, const fs::path& file);
Manifest load_manifest(const fs::path& file);

}  // namespace perfgate::catalog
