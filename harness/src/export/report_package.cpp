#include "export/report_package.hpp"

#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <iostream>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "gate/run_diff.hpp"
#include "process/capture.hpp"
#include "process/spawn.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"

namespace perfgate::exports {
namespace {

bool has_report_modules(const std::string& python) {
  return process::capture_stdout({python, "-c", "import matplotlib, numpy, jsonschema"}, std::chrono::seconds(60))
      .has_value();
}

// Runs the report package in the foreground (our process group, so Ctrl-C reaches it too) and
// returns its exit code.
int run_python(const std::vector<std::string>& args, const std::string& pythonpath) {
  process::SpawnSpec spec;
  spec.argv = args;
  if (auto found = process::find_program(args.at(0))) spec.argv[0] = *found;
  spec.env = process::environment_with({{"PYTHONPATH", pythonpath}});
  spec.stdout_fd = 1;
  spec.stderr_fd = 2;
  spec.new_process_group = false;
  pid_t pid;
  try {
    pid = process::spawn(spec).pid;
  } catch (const process::SpawnError& e) {
    throw RunError(std::string("cannot run the report package: ") + e.what());
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitRun;
}

// PERFGATE_PYTHON, then /usr/bin/python3 (Debian's, where python3-matplotlib installs), then
// python3 on PATH.
std::string find_python() {
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("PERFGATE_PYTHON"); p && *p) candidates.push_back(p);
  candidates.push_back("/usr/bin/python3");
  candidates.push_back("python3");
  for (const auto& c : candidates)
    if (has_report_modules(c)) return c;
  throw UsageError(
      "no Python with matplotlib, numpy and jsonschema found (tried PERFGATE_PYTHON, /usr/bin/python3, python3): "
      "apt-get install python3-matplotlib python3-numpy python3-jsonschema");
}

bool is_bisect_file(const std::string& file) {
  const auto text = try_read_file(file);
  if (!text) return false;
  const auto j = nlohmann::json::parse(*text, nullptr, false);
  return j.is_object() && j.value("kind", "") == "bisect";
}

}  // namespace

int render_report(const ReportRequest& r) {
  const auto& files = r.files;
  std::vector<model::ResultsDoc> docs;
  // `perfgate bisect`'s file is its own kind (kind "bisect"): the report package checks it.
  const bool bisect = files.size() == 1 && is_bisect_file(files.front());
  if (!r.history && !bisect)
    for (const auto& f : files) docs.push_back(store::read_results(f));
  std::string python = find_python();
  std::string pythonpath = (catalog::share_dir() / "reports").string();
  if (const char* pp = std::getenv("PYTHONPATH"); pp && *pp) pythonpath += ":" + std::string(pp);
  std::vector<std::string> args = {python, "-m", "perfgate_report"};
  if (r.history) args.push_back("--history");
  if (r.brief) {
    if (files.size() != 1 || r.history) throw UsageError("report --brief takes one results file");
    args.push_back("--brief");
  }
  for (std::size_t k = 0; k < docs.size(); ++k)
    if (const auto why = store::incompleteness(docs[k])) {
      std::cerr << "perfgate report: " << files[k] << ": " << *why << "\n";
      args.push_back("--incomplete");
      args.push_back(files[k] + ": " + *why);
    }
  args.insert(args.end(), files.begin(), files.end());
  if (!r.out_dir.empty()) {
    args.push_back("-o");
    args.push_back(r.out_dir);
  }
  TempDir tmp("perfgate-report-");
  if (docs.size() == 2) {
    // compare's defaults: the same rows, the same Holm family, the same p-values and verdicts;
    // the report computes none of them, and says at which level and band they were decided.
    const gate::DiffOptions options;
    auto diff = gate::to_json(gate::diff_runs(docs[0], docs[1], options));
    diff["options"] = {{"alpha", options.alpha}, {"noise", options.noise}};
    const auto diff_file = tmp.path() / "compare.json";
    write_file_atomic(diff_file, diff.dump() + "\n");
    args.push_back("--diff");
    args.push_back(diff_file.string());
  }
  std::cout.flush();
  return run_python(args, pythonpath);
}

}  // namespace perfgate::exports
