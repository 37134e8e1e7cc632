#include "suite/baseline_stamp.hpp"

#include <map>

#include "catalog/catalog.hpp"
#include "common/git_probe.hpp"
#include "run/metric_specs.hpp"
#include "suite/fingerprint.hpp"

namespace perfgate::suite {
namespace {

namespace fs = std::filesystem;

// The files of a scenario folder that sources.sha256 covers (cmake/PerfgateScenario.cmake).
std::vector<std::string> source_pathspec(const fs::path& folder) {
  const std::string f = folder.string();
  return {"--",
          f,
          ":(exclude)" + f + "/tests",
          ":(exclude)" + f + "/tools",
          ":(exclude,glob)" + f + "/**/*.md",
          ":(exclude,glob)" + f + "/*.md",
          ":(exclude,glob)" + f + "/**/test_*",
          ":(exclude,glob)" + f + "/test_*",
          ":(exclude,glob)" + f + "/**/*_test.*",
          ":(exclude,glob)" + f + "/*_test.*",
          ":(exclude)" + f + "/scenario.json"};
}

// Why the manifest at `commit` shaped other work than today's, or "" when it did not (a claim,
// an anchor or a title may have changed).
std::string manifest_changed_since(const catalog::Manifest& now, const fs::path& folder, const std::string& commit,
                                   const std::string& profile) {
  const std::string top = git_stdout(folder, {"rev-parse", "--show-toplevel"}).value_or("");
  const fs::path rel = fs::relative(fs::absolute(folder) / "scenario.json", top.substr(0, top.find('\n')));
  const auto text = git_stdout(folder, {"show", commit + ":" + rel.string()});
  if (!text) return "its scenario.json did not exist at " + commit.substr(0, 12);
  try {
    const catalog::Manifest then = catalog::parse_manifest(nlohmann::json::parse(*text), now.file);
    if (same_work(then, now, profile)) return "";
  } catch (const std::exception&) {
    return "its scenario.json at " + commit.substr(0, 12) + " does not read as a manifest today";
  }
  return "its scenario.json shaped other work at " + commit.substr(0, 12) + " (arguments, params, fixture …)";
}

// Why the folder is not as it was at `commit`, or "" when it is (committed and uncommitted
// changes alike: the build compiles the work tree).
std::string changed_since(const fs::path& folder, const std::string& commit) {
  if (!git_stdout(folder, {"cat-file", "-e", commit + "^{commit}"}))
    return "commit " + commit.substr(0, 12) + " is not in the repository of " + folder.string();
  std::vector<std::string> args = {"diff", "--name-only", commit};
  for (const auto& p : source_pathspec(fs::absolute(folder))) args.push_back(p);
  const auto out = git_stdout(folder, args);
  if (!out) return "git diff failed in " + folder.string();
  if (out->empty()) return "";
  std::string first = out->substr(0, out->find('\n'));
  return "its sources changed since " + commit.substr(0, 12) + " (" + first +
         (out->find('\n') + 1 < out->size() ? ", …" : "") + ")";
}

fs::path source_of(const catalog::Manifest& m) {
  std::error_code ec;
  const bool bundled = fs::equivalent(m.dir.parent_path(), catalog::bundled_catalog_dir(), ec);
  const fs::path source = fs::path(PERFGATE_SOURCE_DIR) / "scenarios" / m.name;
  return bundled && fs::exists(source / "scenario.json") ? source : m.dir;
}

}  // namespace

std::vector<store::BaselineChange> stamp_baseline(store::Baseline& b, const std::vector<catalog::Manifest>& catalog) {
  std::vector<store::BaselineChange> lines;
  std::map<std::string, std::string> verdict_of;  // scenario + commit → "" (unchanged) or why not
  for (auto& e : b.entries) {
    const catalog::Manifest* m = nullptr;
    for (const auto& c : catalog)
      if (c.name == e.scenario) m = &c;
    if (!m) continue;
    const std::string fp = declared_fingerprint(*m, e.profile);
    if (fp.empty()) continue;
    if (!e.exact)
      if (const auto* spec = run::harness_metric(e.metric)) e.exact = spec->exact;
    int stamped = 0, stale = 0, current = 0;
    std::string why;
    for (auto& r : e.runs) {
      if (!r.fingerprint.empty()) {
        current += r.fingerprint == fp;
        continue;
      }
      const std::string key = e.scenario + "@" + r.commit;
      if (!verdict_of.count(key)) {
        verdict_of[key] = changed_since(source_of(*m), r.commit);
        if (verdict_of[key].empty()) verdict_of[key] = manifest_changed_since(*m, source_of(*m), r.commit, e.profile);
      }
      if (verdict_of[key].empty()) {
        r.fingerprint = fp;
        ++stamped;
      } else {
        ++stale;
        why = verdict_of[key];
      }
    }
    if (!e.runs.empty()) e.fingerprint = e.runs.back().fingerprint;
    if (stamped) lines.push_back({e.key(), "stamped", std::to_string(stamped) + " run(s) with " + fp});
    if (stale) lines.push_back({e.key(), "stale", std::to_string(stale) + " run(s) left unstamped: " + why});
    if (!stamped && !stale) lines.push_back({e.key(), "current", std::to_string(current) + " run(s) already " + fp});
  }
  return lines;
}

}  // namespace perfgate::suite
