#include "cli/ci_outputs.hpp"

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "store/gbench_export.hpp"
#include "store/github_actions.hpp"
#include "store/junit_file.hpp"

namespace perfgate::cli {

namespace {

// One output, on its own: a failure is kept as a message and the others are still written.
template <class Write>
void attempt(std::vector<std::string>& unwritten, const std::string& what, Write&& write) {
  try {
    write();
  } catch (const std::exception& e) {
    unwritten.push_back(what + ": " + e.what());
  }
}

}  // namespace

std::vector<std::string> write_ci_outputs(const model::ResultsDoc& typed, const plan::RunOptions& o) {
  std::vector<std::string> unwritten;
  if (!o.junit_path.empty())
    attempt(unwritten, "--junit " + o.junit_path, [&] { store::write_junit(o.junit_path, typed); });
  if (!o.gbench_path.empty())
    attempt(unwritten, "--export-gbench " + o.gbench_path, [&] { store::write_gbench(o.gbench_path, typed); });
  const char* gha = std::getenv("GITHUB_ACTIONS");
  if (gha && std::string(gha) == "true") {
    store::write_annotations(std::cout, typed);
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary)
      attempt(unwritten, "the step summary", [&] { store::append_step_summary(summary, typed); });
    std::cout.flush();
  }
  return unwritten;
}

}  // namespace perfgate::cli
