#include "plan/against.hpp"

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/git_probe.hpp"
#include "common/program_path.hpp"
#include "plan/gbench_plan.hpp"

namespace perfgate::plan {

namespace fs = std::filesystem;

namespace {

bool holds_scenarios(const fs::path& dir) {
  if (!fs::is_directory(dir)) return false;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::exists(e.path() / "scenario.json")) return true;
  return false;
}

}  // namespace

fs::path other_build_catalog(const fs::path& dir, const std::string& flag) {
  for (const fs::path& c :
       {dir / "share" / "perfgate" / "scenarios", dir / "build" / "share" / "perfgate" / "scenarios", dir})
    if (holds_scenarios(c)) return c;
  const std::string what = flag == "--against" ? "build the other branch first (cmake --build DIR/build)"
                                               : "give a built perfgate tree or its install prefix "
                                                 "(bash scripts/setup.sh builds one into build/)";
  throw UsageError(flag + " " + dir.string() +
                   ": no built catalog there (looked in DIR/share/perfgate/scenarios, "
                   "DIR/build/share/perfgate/scenarios and DIR): " +
                   what);
}

model::AgainstBuild apply_against(RunPlan& rp, const RunOptions& o, std::vector<std::string>& notes,
                                  const BenchmarkLister& list) {
  const fs::path dir = o.against_dir;
  const fs::path catalog_dir = other_build_catalog(dir);
  const auto other = catalog::load_catalog(catalog_dir);
  std::vector<ScenarioPlan> kept;
  for (auto& sp : rp.scenarios) {
    const auto& m = sp.manifest;
    if (m.kind != catalog::ScenarioKind::Batch && m.kind != catalog::ScenarioKind::Gbench) {
      notes.push_back(m.name + ": skipped: --against compares batch scenarios (this one is " +
                      std::string(name_of(m.kind)) + ")");
      continue;
    }
    const catalog::Manifest* om = nullptr;
    for (const auto& x : other)
      if (x.name == m.name) om = &x;
    if (!om) {
      notes.push_back(m.name + ": skipped: the other build has no such scenario");
      continue;
    }
    fs::path prog = om->program;
    if (prog.is_relative() && (om->program.find('/') != std::string::npos || fs::exists(om->dir / prog)))
      prog = om->dir / prog;
    std::string resolved;
    try {
      resolved = resolve_program(prog.string());
    } catch (const UsageError& e) {
      throw UsageError(om->file.string() + ": program: " + e.what() + " (is the other build built?)");
    }
    if (m.kind == catalog::ScenarioKind::Gbench) {  // two binaries, compared by their X/after benchmarks
      plan_gbench_against(sp, resolved, list);
      for (auto& line : gbench_only_lines(sp)) notes.push_back(m.name + ": " + line);
      sp.variants.front().label = "other build's after";
      sp.variants.back().label = "this build's after";
      sp.claims.clear();
      sp.policy = o.policy.value_or(catalog::Policy::NoRegress);
      kept.push_back(std::move(sp));
      continue;
    }
    catalog::Variant before = om->variant("after"), after = m.variant("after");
    before.name = "before";
    before.label = "other build's after";
    before.compare_to.reset();
    after.label = "this build's after";
    after.compare_to = "before";
    sp.variants = {before, after};
    auto& program = std::get<ContractProgram>(sp.source);
    program.program_of["before"] = resolved;
    program.run_as["before"] = "after";
    sp.claims.clear();
    sp.policy = o.policy.value_or(catalog::Policy::NoRegress);
    kept.push_back(std::move(sp));
  }
  rp.scenarios = std::move(kept);
  return {fs::absolute(dir).string(), fs::absolute(catalog_dir).string(), git_state(dir).commit,
          "before = the other build's after; after = this build's after; ratio = this/other"};
}

}  // namespace perfgate::plan
