// A program's layout spread on this machine, as `perfgate calibrate --layouts` measured it
// (layouts/layout_calibration.hpp) and the user's cache keeps it (store/layout_spread.hpp); the
// caveat on two prebuilt executables quotes it (gate/layout_caveat.hpp).
#pragma once

#include <string>
#include <vector>

namespace perfgate::model {

struct LayoutSpread {
  std::string program;      // the file name the record is kept under ("prog")
  std::string command;      // the command measured, as given
  std::string cpu_model;    // measure::host_info().cpu_model where it was measured
  std::string measured_at;  // UTC, ISO 8601
  std::string metric, unit;
  int layouts = 0, rounds = 0;
  std::vector<double> medians;  // each layout's geometric mean over its rounds (both sides: one build)
  double spread = 0;            // half the range of those over their geometric mean (±), noise included
  double noise_sd = 0;          // sd of ln(value) within a layout: the rounds' own noise
  double layout_sd = 0;         // sd of the layouts' ln speed beyond that noise (0 when none is seen)
  // exp(1.96·√2·layout_sd) − 1: two builds in two random layouts differ by less than this in 95%
  // of pairs, so a single-layout A/B's change below it may be layout alone.
  double trusted_change = 0;
};

}  // namespace perfgate::model
