#include "cli/ci_outputs.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

#include "store/gbench_export.hpp"
#include "store/github_actions.hpp"
#include "store/junit_file.hpp"

namespace perfgate::cli {

void write_ci_outputs(const model::ResultsDoc& typed, const plan::RunOptions& o) {
  if (!o.junit_path.empty()) store::write_junit(o.junit_path, typed);
  if (!o.gbench_path.empty()) store::write_gbench(o.gbench_path, typed);
  const char* gha = std::getenv("GITHUB_ACTIONS");
  if (gha && std::string(gha) == "true") {
    store::write_annotations(std::cout, typed);
    if (const char* summary = std::getenv("GITHUB_STEP_SUMMARY"); summary && *summary)
      store::append_step_summary(summary, typed);
    std::cout.flush();
  }
}

}  // namespace perfgate::cli
