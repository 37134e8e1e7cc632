// The scenario SDK: a program's whole main.
//
//   int main(int argc, char** argv) {
//     return perfgate::scenario_main(argc, argv, perfgate::ScenarioProgram("my_scenario")
//                                                    .variants({"before", "after"})
//                                                    .seed(seed)
//                                                    .run(run));
//   }
//
// A lie is declared once, in scenario.json's `lies`: perfgate_scenario() (or, outside the tree,
// perfgate_manifest_lies() of the CMake package) compiles their names into the program, and
// those are the lies it accepts. A program built without them names its own with .lies({...});
// given both, they must agree.
//
// It parses the contract's command line (sample.hpp's parse_invocation), refuses an unknown
// command, variant or lie with exit 2, dispatches to seed / run / serve, prints the seed's
// figures and the run's Report as the last stdout line, and turns an exception into a message
// on stderr and exit 1. A run that finds a wrong or divergent answer says so in its Report
// (Report::not_equivalent) or throws NotEquivalent: either way the line carries
// "equivalent": false and the reason, the program exits 0, and the harness exits 3.
#pragma once

#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgate/sample.hpp"

// scenario.json's lies[].name, comma-separated: defined by the source perfgate_manifest_lies()
// generates (weak: null in a program built without it).
extern "C" const char* const perfgate_manifest_lies __attribute__((weak));

namespace perfgate {

namespace detail {
// The manifest's lies compiled into this program, or nothing when none were.
inline std::optional<std::vector<std::string>> manifest_lies() {
  if (&perfgate_manifest_lies == nullptr) return std::nullopt;
  std::vector<std::string> names;
  std::string name;
  for (const char* c = perfgate_manifest_lies;; ++c) {
    if (*c == ',' || *c == '\0') {
      if (!name.empty()) names.push_back(name);
      name.clear();
      if (*c == '\0') break;
    } else {
      name += *c;
    }
  }
  return names;
}
}  // namespace detail

// A wrong or divergent answer found where returning a Report is awkward.
class NotEquivalent : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a program is: its name, what it accepts, and its handlers. Built fluently:
//   ScenarioProgram("x").variants({"before", "after"}).seed(f).run(g)
struct ScenarioProgram {
  explicit ScenarioProgram(std::string program_name)
      : name(std::move(program_name)), lie_names(detail::manifest_lies().value_or(std::vector<std::string>{})) {}
  ScenarioProgram& variants(std::vector<std::string> v) {
    variant_names = std::move(v);
    return *this;
  }
  // Only for a program built without its manifest's lies compiled in (see above).
  ScenarioProgram& lies(std::vector<std::string> v) {
    own_lie_names = v;
    lie_names = std::move(v);
    return *this;
  }
  ScenarioProgram& seed(std::function<json(const Invocation&)> f) {
    seed_fn = std::move(f);
    return *this;
  }
  ScenarioProgram& run(std::function<Report(const Invocation&)> f) {
    run_fn = std::move(f);
    return *this;
  }
  ScenarioProgram& serve(std::function<int(const Invocation&)> f) {
    serve_fn = std::move(f);
    return *this;
  }
  // A service's own load client, one phase per call (`load --phase NAME --target HOST:PORT`).
  ScenarioProgram& load(std::function<Report(const Invocation&)> f) {
    load_fn = std::move(f);
    return *this;
  }

  std::string name;
  std::vector<std::string> variant_names;                 // accepted --variant values (empty: any)
  std::vector<std::string> lie_names;                     // accepted --lie values (the manifest's `lies[].name`)
  std::optional<std::vector<std::string>> own_lie_names;  // what .lies() named, checked against the manifest's
  std::function<json(const Invocation&)> seed_fn;         // the fixture's figures (null json: print nothing)
  std::function<Report(const Invocation&)> run_fn;        // one sample's report
  std::function<int(const Invocation&)> serve_fn;         // serves until SIGTERM; the exit code
  std::function<Report(const Invocation&)> load_fn;       // one phase of load against a served address
};

namespace detail {
inline std::string one_of(const std::vector<std::string>& names) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) s += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + names[i];
  return s.empty() ? "(none declared)" : s;
}
inline bool listed(const std::vector<std::string>& names, const std::string& n) {
  for (const auto& x : names)
    if (x == n) return true;
  return false;
}
// Two declarations of the lies must name the same ones (a list kept by hand drifts).
inline void check_own_lies(const ScenarioProgram& p) {
  const auto manifest = manifest_lies();
  if (!manifest || !p.own_lie_names) return;
  bool same = manifest->size() == p.own_lie_names->size();
  for (const auto& n : *manifest) same = same && listed(*p.own_lie_names, n);
  if (!same)
    throw std::invalid_argument("ScenarioProgram.lies(" + one_of(*p.own_lie_names) + ") differs from scenario.json's " +
                                one_of(*manifest) + ": declare the lies in scenario.json alone");
}
}  // namespace detail

inline int scenario_main(int argc, char** argv, const ScenarioProgram& p) {
  Invocation inv;
  try {
    detail::check_own_lies(p);
    inv = parse_invocation(argc, argv);
    const bool has = inv.command == "seed"   ? static_cast<bool>(p.seed_fn)
                     : inv.command == "run"  ? static_cast<bool>(p.run_fn)
                     : inv.command == "load" ? static_cast<bool>(p.load_fn)
                                             : static_cast<bool>(p.serve_fn);
    if (!has) throw std::invalid_argument(p.name + " has no `" + inv.command + "` command");
    if (inv.command != "seed" && !p.variant_names.empty() && !detail::listed(p.variant_names, inv.variant))
      throw std::invalid_argument("unknown variant '" + inv.variant + "': expected " + detail::one_of(p.variant_names));
    if (!inv.lie.empty() && (inv.command == "seed" || !detail::listed(p.lie_names, inv.lie)))
      throw std::invalid_argument("unknown lie '" + inv.lie + "': " + p.name + " declares " +
                                  detail::one_of(p.lie_names));
  } catch (const std::exception& e) {
    std::cerr << p.name << ": " << e.what() << std::endl;
    return 2;
  }
  try {
    if (inv.command == "seed") {
      const json figures = p.seed_fn(inv);
      if (!figures.is_null()) std::cout << figures.dump() << std::endl;
      return 0;
    }
    if (inv.command == "serve") return p.serve_fn(inv);
    Report report;
    try {
      report = inv.command == "load" ? p.load_fn(inv) : p.run_fn(inv);
    } catch (const NotEquivalent& e) {
      report = Report{};
      report.not_equivalent(e.what());
    }
    if (!inv.lie.empty()) report.extra("lie", inv.lie);
    report.print();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << p.name << ": " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace perfgate
