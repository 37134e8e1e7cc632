// The commands besides bisect that time builds of the user's repository (revisions.hpp builds
// them): `ab --rev-before REV --rev-after REV --build CMD`, whose pair runs in the two revisions'
// worktrees, and `calibrate --layouts K --build CMD -- COMMAND`, one revision built in K layouts,
// each run against itself (layouts/layout_calibration.hpp). A command's {rev_dir} is the worktree
// its build is in; with layouts, layout {layout}'s.
#pragma once

#include <string>
#include <vector>

#include "common/command_opening.hpp"
#include "common/defaults.hpp"
#include "plan/ab_plan.hpp"
#include "plan/build_source.hpp"
#include "suite/calibration.hpp"

namespace perfgate::bisect {

// `pair`'s commands and folders in the worktrees of `before_rev` and `after_rev`, both built;
// a log line says which commits they are.
void use_revisions(const plan::BuildSource& source, const std::string& before_rev, const std::string& after_rev,
                   plan::AbPair& pair);

struct LayoutCalibration {
  plan::BuildSource source;
  int rounds = 3;                    // --layout-rounds
  std::vector<std::string> command;  // what is timed, after --
  std::string metric = "auto";
};

// `calibrate --layouts K`: the program built in K layouts, the spread of their A/A runs printed,
// kept for ab's caveat and written to the opening's JSON file. Throws UsageError without --build
// or a command.
int calibrate_layouts(const LayoutCalibration& c, const CommandOpening& opening);

// `perfgate calibrate` as its flags give it: the bundled programs of known work
// (suite/calibration.hpp), or with --layouts K the user's program built K ways.
struct CalibrateCommand {
  suite::CalibrationOptions programs;
  LayoutCalibration layouts;
  std::string out_dir = defaults::kOutDir, json_path;
};

// Either calibration, under the out folder's lock; returns the exit code. Throws UsageError for
// a command or --build without --layouts.
int run_calibrate_command(CalibrateCommand& c, const std::vector<std::string>& argv);

}  // namespace perfgate::bisect
