// Where builds of the user's repository come from (--build, --repo, --cache, --layouts): the
// revisions `ab --rev-before` compares and the layouts `ab` and `calibrate` build
// (bisect/revision_runs.hpp builds them).
#pragma once

#include <string>

namespace perfgate::plan {

struct BuildSource {
  std::string build, repo = ".", cache;
  int layouts = 0;
};

}  // namespace perfgate::plan
