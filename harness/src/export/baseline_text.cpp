#include "export/baseline_text.hpp"

#include <map>
#include <set>
#include <string>

#include "gate/policy.hpp"

namespace perfgate::exports {

namespace {

// "13 accepted run(s): 10 on AMD EPYC x2 (1 machine, 3 stale), 3 on Intel(R) Xeon(R) Processor x2
// (2 machines)": what each host class can be gated against (one machine gates only itself:
// gate/spread_rule.hpp). Stale: recorded with another scenario fingerprint than the entry's
// newest run.
std::string runs_by_class(const model::BaselineEntry& e) {
  struct Counts {
    int runs = 0, stale = 0;
    std::set<std::string> machines;
  };
  std::map<std::string, Counts> by_class;
  for (const auto& r : e.runs) {
    auto& c = by_class[r.host_class()];
    ++c.runs;
    c.stale += r.fingerprint.empty() || r.fingerprint != e.fingerprint;
    c.machines.insert(r.host_fingerprint);
  }
  std::string out = std::to_string(e.runs.size()) + " accepted run(s):";
  const char* sep = " ";
  for (const auto& [cls, c] : by_class) {
    const auto m = c.machines.size();
    out += sep + std::to_string(c.runs) + " on " + cls + " (" + std::to_string(m) + (m == 1 ? " machine" : " machines");
    if (c.stale) out += ", " + std::to_string(c.stale) + " stale";
    out += ")";
    sep = ", ";
  }
  return out;
}

}  // namespace

void print_changes(std::ostream& out, const std::vector<store::BaselineChange>& changes) {
  for (const auto& c : changes) {
    std::string what = c.what;
    what.resize(9, ' ');
    out << what << " " << c.key << ": " << c.detail << "\n";
  }
}

void print_baseline_entries(std::ostream& out, const model::Baseline& b) {
  for (const auto& e : b.entries)
    out << e.key() << "  " << e.variant << "/" << e.compare_to << " " << gate::format_ratio(e.ratio, e.ci)
        << (e.exact.value_or(false) ? "  exact" : "") << "  " << runs_by_class(e) << "  medians " << e.before_median
        << " → " << e.after_median << " " << e.unit << "  commit " << e.commit.substr(0, 12)
        << (e.dirty ? " (dirty)" : "") << "\n";
  out << b.entries.size() << " entries in " << b.file.string() << "\n";
}

}  // namespace perfgate::exports
