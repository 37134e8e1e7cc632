#include <unistd.h>

#include <cstring>
#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "store/results_input.hpp"

namespace perfgate::cli {
namespace {

bool has_matplotlib(const std::string& python) {
  std::string cmd = python + " -c 'import matplotlib, numpy' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

// PERFGATE_PYTHON, then /usr/bin/python3 (Debian's, where python3-matplotlib installs), then
// python3 on PATH.
std::string find_python() {
  std::vector<std::string> candidates;
  if (const char* p = std::getenv("PERFGATE_PYTHON"); p && *p) candidates.push_back(p);
  candidates.push_back("/usr/bin/python3");
  candidates.push_back("python3");
  for (const auto& c : candidates)
    if (has_matplotlib(c)) return c;
  throw UsageError(
      "no Python with matplotlib and numpy found (tried PERFGATE_PYTHON, /usr/bin/python3, python3): "
      "apt-get install python3-matplotlib python3-numpy");
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Write report.md and plots from a results file (two files: a comparison)");
  auto files = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("results", *files, "RESULTS.json, or A.json B.json to compare two runs")->required()->expected(1, 2);
  cmd->add_option("-o,--output", *out, "Folder for report.md and its plots (default: beside the results file)");
  auto history = std::make_shared<bool>(false);
  cmd->add_flag("--history", *history, "The file is a series from 'perfgate history show --json': plot it");
  cmd->callback([files, out, history] {
    // A malformed results file is exit 2 naming file and field, as in every other reader.
    if (!*history)
      for (const auto& f : *files) store::load_results(f);
    std::string python = find_python();
    std::filesystem::path reports = catalog::share_dir() / "reports";
    std::string pythonpath = reports.string();
    if (const char* pp = std::getenv("PYTHONPATH"); pp && *pp) pythonpath += ":" + std::string(pp);
    ::setenv("PYTHONPATH", pythonpath.c_str(), 1);
    std::vector<std::string> args = {python, "-m", "perfgate_report"};
    if (*history) args.push_back("--history");
    args.insert(args.end(), files->begin(), files->end());
    if (!out->empty()) {
      args.push_back("-o");
      args.push_back(*out);
    }
    std::vector<char*> cargv;
    for (auto& a : args) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    std::cout.flush();
    ::execvp(cargv[0], cargv.data());
    throw RunError("cannot run " + python + ": " + std::strerror(errno));
  });
}

}  // namespace perfgate::cli
