#include "suite/gbench_pairs.hpp"

#include "common/files.hpp"
#include "plan/gbench_plan.hpp"
#include "run/gbench_sample.hpp"

namespace perfgate::suite {

std::vector<std::string> gbench_only_lines(const plan::ScenarioPlan& s) {
  std::vector<std::string> lines;
  for (const auto& [variant, names] : s.gbench_only)
    for (const auto& name : names)
      lines.push_back("warning: " + name + " is only in " + variant + " (" +
                      (variant == "before" ? s.before_argv : s.after_argv).at(0) + "): not compared");
  return lines;
}

std::vector<std::string> list_gbench_pairs(plan::RunPlan& rp, const plan::RunOptions& o) {
  TempDir dir("perfgate-run-");
  std::vector<std::string> lines;
  for (auto& s : rp.scenarios) {
    if (!s.gbench_pair) continue;
    auto list = [&](const std::string& variant, const std::vector<std::string>& argv) {
      const auto wd = s.workdir.find(variant);
      return run::list_gbench_benchmarks(s.manifest.name, argv,
                                         wd == s.workdir.end() ? dir.path() : fs::path(wd->second), dir);
    };
    plan::set_gbench_benchmarks(rp, s, list("before", s.before_argv), list("after", s.after_argv), o);
    for (auto& line : gbench_only_lines(s)) lines.push_back(s.manifest.name + ": " + line);
  }
  return lines;
}

}  // namespace perfgate::suite
