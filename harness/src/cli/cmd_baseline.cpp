// `perfgate baseline update|check|show`: write the accepted figures of a run into baseline.json,
// check a results file against them, list them. docs/baseline.md.
#include <iostream>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "gate/baseline_gate.hpp"
#include "gate/policy.hpp"
#include "store/baseline_file.hpp"
#include "suite/baseline_apply.hpp"

namespace perfgate::cli {
namespace {

using json = nlohmann::json;

std::filesystem::path baseline_path(const std::string& given) {
  return given.empty() ? suite::default_baseline_path() : std::filesystem::path(given);
}

}  // namespace

void add_baseline_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("baseline", "The accepted figures every run is compared with (baseline.json)");
  cmd->require_subcommand(1);
  auto file = std::make_shared<std::string>();
  auto results = std::make_shared<std::string>();
  auto results_files = std::make_shared<std::vector<std::string>>();
  auto append = std::make_shared<bool>(false);
  auto only = std::make_shared<std::vector<std::string>>();
  auto dry = std::make_shared<bool>(false);
  auto tolerance = std::make_shared<double>(5.0);
  auto alpha = std::make_shared<double>(0.05);

  auto* update = cmd->add_subcommand(
      "update", "Write or refresh the entries of every gated metric of RESULTS.json files (says which)");
  update
      ->add_option("results", *results_files,
                   "Results files of perfgate run: each is one accepted run of every entry it has")
      ->required();
  update->add_flag("--append", *append, "Add these runs to the entries' accepted runs (default: they replace them)");
  update->add_option("--baseline", *file,
                     "The baseline file (default: share/perfgate/baseline.json, the committed one)");
  update->add_option("--scenario", *only, "Only these scenarios (repeatable)");
  update->add_flag("--dry-run", *dry, "Say what would change, write nothing");
  update->callback([=] {
    auto u = suite::update_baseline(*results_files, baseline_path(*file), *only, *append);
    for (const auto& f : u.dirty)
      std::cerr << "perfgate: note: " << f
                << " was made from a dirty work tree; its commit is recorded with dirty: true\n";
    for (const auto& s : u.skipped) std::cout << "skipped   " << s << "\n";
    if (u.changes.empty())
      throw UsageError((*results_files)[0] + ": no gated figure to record (see the skipped lines)");
    store::Baseline& b = u.baseline;
    const auto& changes = u.changes;
    for (const auto& c : changes) {
      std::string what = c.what;
      what.resize(9, ' ');
      std::cout << what << " " << c.key << ": " << c.detail << "\n";
    }
    if (*dry) {
      std::cout << "(dry run: " << b.file.string() << " not written)\n";
      return;
    }
    store::save_baseline(b);
    std::cout << "wrote " << b.file.string() << " (" << b.entries.size() << " entries)\n";
  });

  auto* check =
      cmd->add_subcommand("check", "Compare a results file with the baseline, as run does (exit 1 on a regression)");
  check->add_option("results", *results, "A results file")->required();
  check->add_option("--baseline", *file, "The baseline file (default: share/perfgate/baseline.json)");
  check->add_option("--baseline-tolerance", *tolerance, "Percent a ratio may move (default 5)")
      ->check(CLI::Range(0.0, 99.0));
  check->add_option("--alpha", *alpha, "Family-wise error rate of the baseline comparisons (default 0.05)")
      ->check(CLI::Range(0.000001, 0.5));
  check->callback([=] {
    auto checks = suite::check_results_against(*results, baseline_path(*file), *alpha, *tolerance / 100.0);
    int code = kExitOk;
    for (const auto& c : checks) {
      const model::GateResult g = gate::baseline_gate(c);
      const std::string mark = !g.passed ? "n/a " : *g.passed ? "PASS" : "FAIL";
      std::cout << mark << "  " << c.now.key() << ": " << g.detail << "\n";
      if (g.failed()) code = kExitPerformance;
    }
    if (checks.empty()) std::cout << "(no gated figures in " << *results << ")\n";
    set_exit_code(code);
  });

  auto* show = cmd->add_subcommand("show", "List the baseline's entries");
  show->add_option("--baseline", *file, "The baseline file (default: share/perfgate/baseline.json)");
  show->callback([=] {
    store::Baseline b = store::load_baseline(baseline_path(*file));
    if (!b.exists) {
      std::cout << b.file.string() << " does not exist (perfgate baseline update RESULTS.json writes it)\n";
      return;
    }
    for (const auto& e : b.entries)
      std::cout << e.key() << "  " << e.variant << "/" << e.compare_to << " " << gate::format_ratio(e.ratio, e.ci)
                << "  " << e.runs.size() << " accepted run(s)"
                << "  medians " << e.before_median << " → " << e.after_median << " " << e.unit << "  host "
                << e.host_fingerprint << "  commit " << e.commit.substr(0, 12) << (e.dirty ? " (dirty)" : "") << "\n";
    std::cout << b.entries.size() << " entries in " << b.file.string() << "\n";
  });
}

}  // namespace perfgate::cli
