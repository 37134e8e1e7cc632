#include "suite/run_document.hpp"

#include <unistd.h>

#include <algorithm>

#include "common/git_probe.hpp"
#include "common/shell_words.hpp"
#include "common/time_stamp.hpp"

namespace perfgate::suite {

using json = nlohmann::json;

std::vector<std::string> reproduce_argv(const std::vector<std::string>& argv, std::uint64_t seed) {
  std::vector<std::string> out = argv;
  bool has_seed = false;
  for (const auto& a : argv) has_seed = has_seed || a == "--seed" || a.rfind("--seed=", 0) == 0;
  if (!has_seed) {
    out.push_back("--seed");
    out.push_back(std::to_string(seed));
  }
  return out;
}

std::string scenario_reproduce(const std::vector<std::string>& argv, const plan::ScenarioPlan& sp) {
  if (plan::users_commands(sp)) return join_command(argv);
  std::vector<std::string> out;
  bool named = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    // A word that is neither a flag nor a flag's value is a scenario name (argv[0] is the
    // program, argv[1] the command).
    if (i > 1 && a.rfind("-", 0) != 0 && argv[i - 1].rfind("--", 0) != 0) {
      if (!named) out.push_back(sp.manifest.name);
      named = true;
      continue;
    }
    // One scenario named, a shard of it would be empty ("shard 2/2 has no scenarios").
    if (a == "--shard") {
      ++i;
      continue;
    }
    if (a.rfind("--shard=", 0) == 0) continue;
    out.push_back(a);
  }
  if (!named) {
    auto it = std::find(out.begin(), out.end(), "run");
    out.insert(it == out.end() ? out.end() : it + 1, sp.manifest.name);
  }
  return join_command(out);
}

std::filesystem::path subject_dir(const plan::RunPlan& rp) {
  // ab's commands are the user's, run in the folder AFTER runs in (the caller's by default).
  if (!rp.scenarios.empty() && plan::users_commands(rp.scenarios.front())) {
    const auto& dirs = rp.scenarios.front().workdir;
    return dirs.count("after") ? std::filesystem::path(dirs.at("after")) : std::filesystem::current_path();
  }
  if (rp.record.catalog) return *rp.record.catalog;
  return PERFGATE_SOURCE_DIR;
}

model::RunHeader run_header(const plan::RunPlan& rp) {
  const std::string source = subject_dir(rp).string();
  const GitState git = git_state(source);
  model::RunHeader run;
  run.other = json::object();
  run.shard = rp.record.shard;
  run.against = rp.record.against;
  run.batch = rp.record.batch;
  run.bisect = rp.record.bisect;
  run.id = now_iso8601() + "-" + std::to_string(::getpid());
  run.started_at = now_iso8601();
  run.command_line = rp.record.argv;
  run.reproduce = join_command(reproduce_argv(rp.record.argv, rp.seed));
  run.perfgate_version = PERFGATE_VERSION;
  run.perfgate_commit = git_state(PERFGATE_SOURCE_DIR).commit;
  run.catalog = rp.record.catalog;
  run.commit = git.commit;
  run.dirty = git.dirty;
  if (!git.branch.empty()) run.branch = git.branch;
  run.git_source = source;
  run.profile = rp.scenarios.empty() ? "" : rp.scenarios.front().profile;
  run.seed = rp.seed;
  run.options = rp.options_json();
  // What keeps a scripted run from ever passing for a measurement (store/results_complete.hpp).
  if (rp.debug_samples)
    (*run.options)["debug_samples"] = std::filesystem::absolute(*rp.debug_samples).lexically_normal().string();
  run.lies = rp.record.lie_args;
  return run;
}

}  // namespace perfgate::suite
