// `perfgate baseline update|check|show`: write the accepted figures of a run into baseline.json,
// check a results file against them, list them. docs/baseline.md.
#include <iostream>
#include <map>
#include <regex>
#include <set>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "export/baseline_text.hpp"
#include "gate/baseline_gate.hpp"
#include "gate/policy.hpp"
#include "store/baseline_file.hpp"
#include "store/results_codec.hpp"
#include "suite/baseline_apply.hpp"
#include "suite/baseline_stamp.hpp"

namespace perfgate::cli {
namespace {

using json = nlohmann::json;

std::filesystem::path baseline_path(const std::string& given) {
  return given.empty() ? catalog::bundled_baseline() : std::filesystem::path(given);
}

// Run times are stored as 2026-03-01T12:00:00Z and compared as text, so any shorter prefix of that
// form is a bound; a trailing Z on a shorter one would sort after the times it should take.
const CLI::Validator kIsoDate(
    [](std::string& s) {
      static const std::regex form(R"(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?)");
      if (!std::regex_match(s, form)) return std::string("must be a UTC date or time (2026-03-01, 2026-03-01T12:00)");
      if (s.back() == 'Z') s.pop_back();
      return std::string();
    },
    "ISO-DATE");

std::string nothing_recorded(const suite::BaselineUpdate& u, bool from_history, const history::AcceptedQuery& q) {
  if (!from_history) return u.from + ": no gated figure to record (see the skipped lines)";
  return u.from + ": no accepted run to record (clean, every gate passed" +
         (q.branch.empty() ? "" : ", branch " + q.branch) + (q.since.empty() ? "" : ", since " + q.since) +
         "; see the skipped lines)";
}

void save_or_say(store::Baseline& b, bool dry) {
  if (dry) {
    std::cout << "(dry run: " << b.file.string() << " not written)\n";
    return;
  }
  store::save_baseline(b);
  std::cout << "wrote " << b.file.string() << " (" << b.entries.size() << " entries)\n";
}

void add_stamp_command(CLI::App& cmd, std::shared_ptr<std::string> file, std::shared_ptr<bool> dry) {
  auto catalog_dir = std::make_shared<std::string>();
  auto* stamp = cmd.add_subcommand(
      "stamp",
      "Give accepted runs recorded before fingerprints this build's fingerprint where git shows their "
      "scenario's sources unchanged since the run's commit (the rest stay stale)");
  flags::baseline_file(stamp, *file);
  flags::catalog(stamp, *catalog_dir);
  flags::dry_run(stamp, *dry);
  stamp->callback([=] {
    store::Baseline b = store::load_baseline(baseline_path(*file));
    if (!b.exists) throw UsageError(b.file.string() + ": does not exist");
    const auto dir = catalog_dir->empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(*catalog_dir);
    exports::print_changes(std::cout, suite::stamp_baseline(b, catalog::load_catalog(dir)));
    save_or_say(b, *dry);
  });
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
  auto tolerance = std::make_shared<double>(defaults::kBaselineTolerance);
  auto alpha = std::make_shared<double>(defaults::kAlpha);

  auto from_history = std::make_shared<std::string>();
  auto accepted = std::make_shared<history::AcceptedQuery>();

  auto* update = cmd->add_subcommand(
      "update", "Write or refresh the entries of every gated metric of RESULTS.json files (says which)");
  auto* files_opt = update->add_option("results", *results_files,
                                       "Results files of perfgate run: each is one accepted run of every entry it has");
  auto* from_opt =
      update
          ->add_option("--from-history", *from_history,
                       "Take the accepted runs from this history database instead (a SQLite file or a PostgreSQL "
                       "DSN, as history add --db): clean runs whose every gate passed")
          ->excludes(files_opt);
  update->add_option("--branch", accepted->branch, "With --from-history: only runs of this branch (default: any)")
      ->needs(from_opt);
  update->add_option("--since", accepted->since, "With --from-history: only runs started at or after this UTC time")
      ->needs(from_opt)
      ->transform(kIsoDate);
  update
      ->add_option("--newest", accepted->newest,
                   "With --from-history: the newest N runs per entry and host class (default 10)")
      ->needs(from_opt)
      ->check(CLI::Range(1, 1000000));
  update->add_flag("--append", *append, "Add these runs to the entries' accepted runs (default: they replace them)");
  flags::baseline_file(update, *file);
  flags::scenarios(update, *only);
  flags::dry_run(update, *dry);
  update->callback([=] {
    if (results_files->empty() && from_history->empty())
      throw UsageError("baseline update: give results files, or --from-history DB");
    accepted->scenarios = *only;
    auto u = from_history->empty()
                 ? suite::update_baseline(*results_files, std::filesystem::path(*file), *only, *append)
                 : suite::update_baseline_from_history(*from_history, *accepted, baseline_path(*file), *append);
    for (const auto& f : u.dirty)
      std::cerr << "perfgate: note: " << f
                << " was made from a dirty work tree; its commit is recorded with dirty: true\n";
    for (const auto& s : u.skipped) std::cout << "skipped   " << s << "\n";
    if (u.changes.empty()) throw UsageError(nothing_recorded(u, !from_history->empty(), *accepted));
    exports::print_changes(std::cout, u.changes);
    save_or_say(u.baseline, *dry);
  });

  auto* check =
      cmd->add_subcommand("check", "Compare a results file with the baseline, as run does (exit 1 on a regression)");
  check->add_option("results", *results, "A results file")->required();
  flags::baseline_file(check, *file);
  flags::baseline_tolerance(check, *tolerance);
  flags::alpha(check, *alpha);
  check->callback([=] {
    const auto checked = suite::check_results_against(*results, std::filesystem::path(*file), *alpha, *tolerance);
    const auto& checks = checked.checks;
    int code = kExitOk;
    for (const auto& c : checks) {
      const model::GateResult g = gate::baseline_gate(c);
      const std::string mark = g.passed() ? "PASS" : g.failed() ? "FAIL" : "n/a ";
      std::cout << mark << "  " << c.now.key() << ": " << g.detail << "\n";
      if (g.failed()) code = kExitPerformance;
    }
    for (const auto& why : checked.not_compared) std::cout << "n/a   " << why << "\n";
    if (checks.empty() && checked.not_compared.empty()) std::cout << "(no gated figures in " << *results << ")\n";
    std::cerr << "perfgate: compared with " << checked.baseline.string() << "\n";
    set_exit_code(code);
  });

  auto* show = cmd->add_subcommand("show", "List the baseline's entries");
  show->add_option("results", *results, "A results file: show the baseline it defaults to (a --catalog run's own)");
  flags::baseline_file(show, *file);
  show->callback([=] {
    store::Baseline b = store::load_baseline(
        !file->empty() || results->empty() ? baseline_path(*file)
                                           : suite::results_baseline_path(store::read_results(*results), *results));
    if (!b.exists) {
      std::cout << b.file.string() << " does not exist (perfgate baseline update RESULTS.json writes it)\n";
      return;
    }
    exports::print_baseline_entries(std::cout, b);
  });

  add_stamp_command(*cmd, file, dry);
}

}  // namespace perfgate::cli
