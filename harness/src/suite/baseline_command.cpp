#include "suite/baseline_command.hpp"

#include <iostream>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "export/baseline_text.hpp"
#include "gate/baseline_gate.hpp"
#include "store/baseline_file.hpp"
#include "store/results_codec.hpp"
#include "suite/baseline_apply.hpp"
#include "suite/baseline_stamp.hpp"

namespace perfgate::suite {
namespace {

std::filesystem::path baseline_path(const std::string& given) {
  return given.empty() ? catalog::bundled_baseline() : std::filesystem::path(given);
}

std::string nothing_recorded(const BaselineUpdate& u, bool from_history, const history::AcceptedQuery& q) {
  if (!from_history) return u.from + ": no gated figure to record (see the skipped lines)";
  return u.from + ": no accepted run to record (clean, every gate passed" +
         (q.branch.empty() ? "" : ", branch " + q.branch) + (q.since.empty() ? "" : ", since " + q.since) +
         "; see the skipped lines)";
}

void save_or_say(std::ostream& out, store::Baseline& b, bool dry) {
  if (dry) {
    out << "(dry run: " << b.file.string() << " not written)\n";
    return;
  }
  store::save_baseline(b);
  out << "wrote " << b.file.string() << " (" << b.entries.size() << " entries)\n";
}

}  // namespace

void update_baseline_file(std::ostream& out, const BaselineUpdateRequest& r) {
  const bool from_history = !r.from_history.empty();
  history::AcceptedQuery accepted = r.accepted;
  accepted.scenarios = r.only;
  auto u = from_history ? update_baseline_from_history(r.from_history, accepted, baseline_path(r.file), r.append)
                        : update_baseline(r.results_files, std::filesystem::path(r.file), r.only, r.append);
  for (const auto& f : u.dirty)
    std::cerr << "perfgate: note: " << f
              << " was made from a dirty work tree; its commit is recorded with dirty: true\n";
  for (const auto& s : u.skipped) out << "skipped   " << s << "\n";
  if (u.changes.empty()) throw UsageError(nothing_recorded(u, from_history, accepted));
  exports::print_changes(out, u.changes);
  save_or_say(out, u.baseline, r.dry_run);
}

int check_baseline(std::ostream& out, const std::string& results, const std::string& file, double alpha,
                   double tolerance) {
  const auto checked = check_results_against(results, std::filesystem::path(file), alpha, tolerance);
  int code = kExitOk;
  for (const auto& c : checked.checks) {
    const model::GateResult g = gate::baseline_gate(c);
    const std::string mark = g.passed() ? "PASS" : g.failed() ? "FAIL" : "n/a ";
    out << mark << "  " << c.now.key() << ": " << g.detail << "\n";
    if (g.failed()) code = kExitPerformance;
  }
  for (const auto& why : checked.not_compared) out << "n/a   " << why << "\n";
  if (checked.checks.empty() && checked.not_compared.empty()) out << "(no gated figures in " << results << ")\n";
  std::cerr << "perfgate: compared with " << checked.baseline.string() << "\n";
  return code;
}

void show_baseline(std::ostream& out, const std::string& file, const std::string& results) {
  store::Baseline b = store::load_baseline(!file.empty() || results.empty()
                                               ? baseline_path(file)
                                               : results_baseline_path(store::read_results(results), results));
  if (!b.exists) {
    out << b.file.string() << " does not exist (perfgate baseline update RESULTS.json writes it)\n";
    return;
  }
  exports::print_baseline_entries(out, b);
}

void stamp_baseline_file(std::ostream& out, const std::string& file, const std::string& catalog_dir, bool dry_run) {
  store::Baseline b = store::load_baseline(baseline_path(file));
  if (!b.exists) throw UsageError(b.file.string() + ": does not exist");
  const auto dir = catalog_dir.empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(catalog_dir);
  exports::print_changes(out, stamp_baseline(b, catalog::load_catalog(dir)));
  save_or_say(out, b, dry_run);
}

}  // namespace perfgate::suite
