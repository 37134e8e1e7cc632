#include <iostream>
#include <optional>

#include "bisect/revisions.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "common/number_format.hpp"
#include "common/out_folder_lock.hpp"
#include "export/calibration_text.hpp"
#include "export/exports.hpp"
#include "layouts/layout_calibration.hpp"
#include "suite/calibration.hpp"

namespace perfgate::cli {

namespace {

// --layouts: what calibrate measures instead of its bundled programs.
struct LayoutFlags {
  int layouts = 0, rounds = 3;
  std::string build, repo = ".", cache;
  std::vector<std::string> command;
};

int calibrate_layouts(const LayoutFlags& f, const std::string& metric, const std::filesystem::path& out_dir,
                      const std::string& json_path) {
  if (f.build.empty()) throw UsageError("calibrate --layouts needs --build CMD (e.g. --build make)");
  if (f.command.empty()) throw UsageError("calibrate --layouts needs the command to time after -- (e.g. -- ./prog)");
  install_interrupt_handlers();
  Progress progress(false);
  const std::string tree = bisect::build_revision_tree(
      f.repo, f.cache.empty() ? "" : std::filesystem::absolute(f.cache), ".", f.build, f.layouts, progress.sink());
  layouts::LayoutRequest r;
  r.name = "calibrate";
  for (auto w : f.command) {
    for (auto at = w.find("{rev_dir}"); at != std::string::npos; at = w.find("{rev_dir}", at + tree.size()))
      w.replace(at, 9, tree);
    r.before_argv.push_back(w);
  }
  r.after_argv = r.before_argv;
  r.before_workdir = r.after_workdir = tree;
  r.layouts = f.layouts;
  r.rounds = f.rounds;
  r.metric = metric;
  r.options.outputs.cannot_tell = plan::CannotTellExit::Pass;  // an A/A's verdict is not the question
  r.dir = out_dir / "layouts-calibration";
  const auto spread = layouts::measure_layout_spread(r, progress.sink());
  progress.clear();
  store::write_layout_spread(spread);
  std::cout << "layout alone moves " << spread.program << " ±" << format_quantity(100 * spread.spread, "%")
            << " on this machine (" << spread.cpu_model << "): " << spread.layouts << " layouts, " << spread.rounds
            << " rounds of each against itself, " << spread.metric << "\n";
  std::cout << "layout means:";
  for (double m : spread.medians) std::cout << " " << format_quantity(m, spread.unit);
  std::cout << "\nthe layouts' own sd: " << format_quantity(100 * spread.layout_sd, "%")
            << " beyond the rounds' noise of " << format_quantity(100 * spread.noise_sd, "%") << " a run";
  if (spread.layout_sd > 0)
    std::cout << "\na single-layout A/B (two prebuilt executables) can trust a change of "
              << format_quantity(100 * spread.trusted_change, "%")
              << " or more: two random layouts differ by less in 95% of pairs\n";
  else
    std::cout << "\nthe layouts moved nothing beyond the rounds' noise here: a single-layout A/B is limited by its "
                 "noise, not by layout (more --layout-rounds would resolve a smaller layout effect)\n";
  std::cout << "kept in " << store::layout_spread_file(spread.program).string()
            << ": ab's caveat on two executables named " << spread.program << " quotes it\n";
  const std::filesystem::path file =
      json_path.empty() ? out_dir / "calibration-layouts.json" : std::filesystem::path(json_path);
  exports::write_exports(
      {exports::json_export("the layout calibration", file, {{"layout_spread", store::to_json(spread)}})}, kExitOk);
  return kExitOk;
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "What `perfgate ab`'s defaults can see on this machine, within a time budget: bundled programs of known work\n"
      "(CPU-bound, syscall-heavy, memory-heavy) run as A/A pairs and with injected extra work. Prints and writes,\n"
      "per metric: per-sample CV, per-round log-ratio sd, observed false-alarm rate, the smallest effect detected\n"
      "with 80% and 95% power; per workload: catches of the injected work and the harness's own perturbation of\n"
      "wall time (wall under perfgate against the program's self-timed wall).");
  auto o = std::make_shared<suite::CalibrationOptions>();
  auto out_dir = std::make_shared<std::string>(defaults::kOutDir);
  auto json_path = std::make_shared<std::string>();
  cmd->add_option(
         "--budget", o->budget_s,
         "Seconds to spend (default 300); a pair is not started when the longest of its kind so far would overrun them")
      ->check(CLI::Range(1.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--workload", o->workloads,
                  "cpu, cpu-duet (the CPU-bound program in --duet rounds), cpu-counted (a tenth of its work, each\n"
                  "sample followed by a valgrind run: instruction counts beside CPU time), syscall, memory\n"
                  "(repeatable; default all)")
      ->check(CLI::IsMember({"cpu", "cpu-duet", "cpu-counted", "syscall", "memory"}));
  cmd->add_option("--extra", o->extra_work, "Injected extra work as a fraction (repeatable; default 0.02 0.05 0.10)")
      ->check(CLI::Range(0.0001, 10.0));
  cmd->add_option("--cpu-iterations", o->cpu_iterations, "Work of the CPU-bound program (xorshift steps)")
      ->capture_default_str();
  cmd->add_option("--syscalls", o->syscalls, "Work of the syscall-heavy program (writes to /dev/null)")
      ->capture_default_str();
  cmd->add_option("--memory-mib", o->memory_mib, "Work of the memory-heavy program (MiB touched)")
      ->capture_default_str();
  flags::gated_metric(cmd, o->metric);
  cmd->add_option("--program", o->program, "The calibration program (default: libexec/perfgate/calibration_work)");
  flags::out_dir(cmd, *out_dir);
  flags::json_file(cmd, *json_path);
  flags::rounds(cmd, o->ab);
  flags::noise(cmd, o->ab.noise);
  flags::seed(cmd, o->ab.seed);  // the n-th pair's seed is seed + n
  auto lf = std::make_shared<LayoutFlags>();
  flags::layouts(cmd, lf->layouts, lf->rounds);
  flags::build_command(cmd, lf->build);
  flags::repo(cmd, lf->repo);
  flags::build_cache(cmd, lf->cache);
  cmd->add_option("command", lf->command, "With --layouts: the command to time (after --; {rev_dir} is the build)")
      ->expected(-1);
  cmd->callback([o, out_dir, json_path, lf] {
    // One command at a time per out folder, as run and ab hold it (common/out_folder_lock.hpp).
    std::optional<OutFolderLock> folder;
    if (json_path->empty() || lf->layouts > 0) folder.emplace(*out_dir, "perfgate calibrate");
    if (lf->layouts > 0) {
      set_exit_code(calibrate_layouts(*lf, o->metric, *out_dir, *json_path));
      return;
    }
    if (!lf->command.empty() || !lf->build.empty())
      throw UsageError("a command and --build go with --layouts K (calibrate --layouts 8 --build make -- ./prog)");
    const nlohmann::json doc = suite::run_calibration(*o);
    exports::print_calibration(std::cout, doc);
    const std::filesystem::path file =
        json_path->empty() ? std::filesystem::path(*out_dir) / "calibration.json" : std::filesystem::path(*json_path);
    if (exports::write_exports({exports::json_export("the calibration", file, doc)}, kExitOk) == 0)
      std::cerr << "perfgate: calibration in " << file.string() << "\n";
    set_exit_code(kExitOk);
  });
}

}  // namespace perfgate::cli
