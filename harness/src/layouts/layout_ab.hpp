// A comparison over layouts (`ab --layouts K`, docs/layout.md): BEFORE and AFTER each built in K
// layouts, the commands naming layout k's build by {layout} in a word. Layout k of both sides is
// one pair, run as its own paired `ab` of a few rounds (one plan per layout, through the suite
// like any run); the verdict is stats/layouts.hpp's over the K pairs. Layouts run one after the
// other: drift between them adds to the between-layout variance, widening the interval, never
// moving the estimate one way.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/defaults.hpp"
#include "plan/options.hpp"
#include "stats/layouts.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::layouts {

struct LayoutRequest {
  std::string name = "ab";
  std::vector<std::string> before_argv, after_argv;          // {layout}: the layout's number, 1..K
  std::optional<std::string> before_workdir, after_workdir;  // {layout} too
  int layouts = 0;
  int rounds = 3;               // paired rounds of each layout
  std::string metric = "auto";  // auto: the first layout's gated metric, then that one throughout
  plan::RunOptions options;     // the user's: seed, noise band, alpha, CPUs, timeout, --debug-samples
  std::filesystem::path dir;    // each layout's results: DIR/layout-K.json
};

struct LayoutRun {
  int layout = 0;
  std::filesystem::path results;
  double before_median = 0, after_median = 0;
  std::vector<double> before, after;  // the paired rounds' values
};

struct LayoutOutcome {
  int exit_code = 0;
  std::string metric, unit;
  Better better = Better::Lower;
  std::vector<LayoutRun> runs;
  std::optional<stats::LayoutEffect> effect;  // set when every layout ran and compared
  std::string failure;                        // why a layout stopped the comparison (exit 2, 3 or 4)
  double band = defaults::kNoise, alpha = defaults::kAlpha;
};

// `word` with every {layout} replaced by `layout`.
std::string with_layout(std::string word, int layout);

// Throws UsageError (exit 2) before anything runs: fewer than 2 layouts, fewer than 2 rounds, or
// no {layout} in either command (every layout would be the same build).
void check_request(const LayoutRequest& r);

LayoutOutcome run_layouts(const LayoutRequest& r, const suite::RunSink& sink);

}  // namespace perfgate::layouts
