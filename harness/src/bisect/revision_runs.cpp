#include "bisect/revision_runs.hpp"

#include <iostream>

#include "bisect/revisions.hpp"
#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "export/calibration_text.hpp"
#include "export/exports.hpp"
#include "layouts/layout_calibration.hpp"
#include "plan/nested_run.hpp"
#include "suite/progress.hpp"

namespace perfgate::bisect {
namespace {

std::filesystem::path cache_dir(const plan::BuildSource& s) {
  return s.cache.empty() ? "" : std::filesystem::absolute(s.cache);
}

void place_tree(std::vector<std::string>& argv, const std::string& tree) {
  for (auto& w : argv)
    for (auto at = w.find("{rev_dir}"); at != std::string::npos; at = w.find("{rev_dir}", at + tree.size()))
      w.replace(at, 9, tree);
}

}  // namespace

void use_revisions(const plan::BuildSource& s, const std::string& before_rev, const std::string& after_rev,
                   plan::AbPair& pair) {
  suite::Progress progress(false);
  const auto sink = progress.sink();
  const auto trees = build_revision_pair(s.repo, cache_dir(s), before_rev, after_rev, s.build, s.layouts, sink);
  progress.clear();
  place_tree(pair.before_argv, trees.before);
  place_tree(pair.after_argv, trees.after);
  pair.before_workdir = trees.before;
  pair.after_workdir = trees.after;
  sink.note("before = " + before_rev + " (" + trees.before_commit.short_sha() + "), after = " + after_rev + " (" +
                trees.after_commit.short_sha() + "), built with `" + s.build + "`",
            true);
}

int calibrate_layouts(const LayoutCalibration& c, const CommandOpening& opening) {
  if (c.source.build.empty()) throw UsageError("calibrate --layouts needs --build CMD (e.g. --build make)");
  if (c.command.empty()) throw UsageError("calibrate --layouts needs the command to time after -- (e.g. -- ./prog)");
  install_interrupt_handlers();
  suite::Progress progress(false);
  const std::string tree =
      build_revision_tree(c.source.repo, cache_dir(c.source), ".", c.source.build, c.source.layouts, progress.sink());
  layouts::LayoutRequest r;
  r.name = "calibrate";
  r.before_argv = c.command;
  place_tree(r.before_argv, tree);
  r.after_argv = r.before_argv;
  r.before_workdir = r.after_workdir = tree;
  r.layouts = c.source.layouts;
  r.rounds = c.rounds;
  r.metric = c.metric;
  r.options =
      plan::nested_options({}, {.cannot_tell = plan::CannotTellExit::Pass});  // an A/A's verdict is not the question
  r.dir = opening.out_dir() / "layouts-calibration";
  const auto spread = layouts::measure_layout_spread(r, progress.sink());
  progress.clear();
  store::write_layout_spread(spread);
  exports::print_layout_spread(std::cout, spread);
  exports::write_exports({exports::json_export("the layout calibration", opening.json_file(),
                                               {{"layout_spread", store::to_json(spread)}})},
                         kExitOk);
  return kExitOk;
}

int run_calibrate_command(CalibrateCommand& c, const std::vector<std::string>& argv) {
  const bool layouts = c.layouts.source.layouts > 0;
  const CommandOpening opening({.out_dir = c.out_dir,
                                .json_path = c.json_path,
                                .json_name = layouts ? "calibration-layouts.json" : "calibration.json",
                                .argv = argv,
                                .writes_folder_with_json = layouts});
  if (layouts) {
    c.layouts.metric = c.programs.metric;
    return calibrate_layouts(c.layouts, opening);
  }
  if (!c.layouts.command.empty() || !c.layouts.source.build.empty())
    throw UsageError("a command and --build go with --layouts K (calibrate --layouts 8 --build make -- ./prog)");
  suite::calibrate(c.programs, opening.json_file());
  return kExitOk;
}

}  // namespace perfgate::bisect
