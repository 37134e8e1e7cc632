// The run tests' way to run a program as a sample runs it: in `dir` (stdout and stderr to
// dir/out and dir/err), in a cgroup of its own, pinned to `cpus` (none: anywhere).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/files.hpp"
#include "measure/cgroup.hpp"
#include "run/child.hpp"

namespace perfgate::run {

inline ChildResult run_in(const TempDir& dir, std::vector<std::string> argv, std::vector<int> cpus = {},
                          double timeout = 30) {
  ChildSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = dir.path();
  spec.stdout_path = dir.path() / "out";
  spec.stderr_path = dir.path() / "err";
  spec.cpus = std::move(cpus);
  spec.timeout_s = timeout;
  measure::SampleCgroup cg("run-test");
  return run_child(spec, cg);
}

}  // namespace perfgate::run
