#include "suite/lies_text.hpp"

#include <algorithm>
#include <iomanip>

#include "catalog/catalog.hpp"
#include "export/exports.hpp"
#include "suite/progress.hpp"

namespace perfgate::suite {

void print_lies(std::ostream& out, const std::vector<LieCheck>& checks) {
  std::size_t ws = 8, wl = 3, wc = 9;
  for (const auto& c : checks) {
    ws = std::max(ws, c.scenario.size());
    wl = std::max(wl, c.lie.size());
    wc = std::max(wc, c.caught_by.size());
  }
  auto row = [&](const std::string& s, const std::string& l, const std::string& c, const std::string& r,
                 const std::string& how) {
    out << std::left << std::setw(static_cast<int>(ws)) << s << "  " << std::setw(static_cast<int>(wl)) << l << "  "
        << std::setw(static_cast<int>(wc)) << c << "  " << std::setw(6) << r << "  " << how << "\n";
  };
  row("scenario", "lie", "caught_by", "result", "how");
  for (const auto& c : checks) row(c.scenario, c.lie, c.caught_by, c.caught ? "caught" : "MISSED", c.how);
  std::size_t caught = 0;
  for (const auto& c : checks) caught += c.caught ? 1 : 0;
  out << caught << " of " << checks.size() << " lies caught as declared\n";
}

namespace {

// The classes a workload must ask about (catalog::asked_classes()), one column each: "not
// asked" is a threat listed whose request the workload does not make yet.
void print_asked(std::ostream& out, const CoverageReport& r) {
  if (r.scenarios.empty() || r.scenarios.front().asked.empty()) return;
  std::size_t ws = 8;
  for (const auto& c : r.scenarios) ws = std::max(ws, c.scenario.size());
  std::vector<std::size_t> widths;
  out << "\nwhat the workloads ask\n" << std::left << std::setw(static_cast<int>(ws)) << "scenario";
  for (const auto& [cls, answer] : r.scenarios.front().asked) {
    widths.push_back(std::max<std::size_t>(cls.size(), 6));
    out << "  " << std::setw(static_cast<int>(widths.back())) << cls;
  }
  out << "\n";
  for (const auto& c : r.scenarios) {
    out << std::setw(static_cast<int>(ws)) << c.scenario;
    for (std::size_t i = 0; i < c.asked.size() && i < widths.size(); ++i)
      out << "  " << std::setw(static_cast<int>(widths[i])) << to_string(c.asked[i].second);
    out << "\n";
  }
}

}  // namespace

// Per scenario: threats listed (and classes n/a), threats with a lie, threats and lies caught.
void print_coverage(std::ostream& out, const CoverageReport& r) {
  std::size_t ws = 8;
  for (const auto& c : r.scenarios) ws = std::max(ws, c.scenario.size());
  auto of = [](int a, int b) { return std::to_string(a) + " of " + std::to_string(b); };
  auto row = [&](const std::string& s, const std::string& t, const std::string& na, const std::string& wl,
                 const std::string& tc, const std::string& lc) {
    out << std::left << std::setw(static_cast<int>(ws)) << s << "  " << std::right << std::setw(7) << t << "  "
        << std::setw(3) << na << "  " << std::setw(10) << wl << "  " << std::setw(14) << tc << "  " << std::setw(11)
        << lc << "\n";
  };
  out << "\nthreat coverage\n";
  row("scenario", "threats", "n/a", "with a lie", "threats caught", "lies caught");
  auto line = [&](const ThreatCoverage& c) {
    row(c.scenario, std::to_string(c.threats), std::to_string(c.not_applicable), of(c.with_lie, c.threats),
        of(c.threats_caught, c.threats), of(c.lies_caught, c.lies));
  };
  for (const auto& c : r.scenarios) line(c);
  if (r.scenarios.size() > 1) line(r.total);
  print_asked(out, r);
  if (r.findings.empty()) {
    out << "no findings: every class answered, every threat has a lie and every lie was caught\n";
    return;
  }
  out << r.findings.size() << " finding(s):\n";
  for (const auto& f : r.findings) out << "  " << f << "\n";
}

int run_lies_command(std::ostream& out, const std::string& catalog_dir, const std::vector<std::string>& names,
                     const LiesOptions& options, const std::vector<std::string>& argv, const std::string& json_path) {
  const auto dir = catalog_dir.empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(catalog_dir);
  const auto catalog = catalog::load_catalog(dir);
  Progress progress(false);
  const auto checks = check_lies(catalog, names, options, argv, progress.sink());
  const auto coverage = threat_coverage(catalog, checks);
  print_lies(out, checks);
  print_coverage(out, coverage);
  const int code = lies_exit_code(checks);
  if (!json_path.empty()) {
    nlohmann::json lies = nlohmann::json::array();
    for (const auto& c : checks) lies.push_back(to_json(c));
    exports::write_exports(
        {exports::json_export("--json", json_path, {{"lies", lies}, {"coverage", to_json(coverage)}})}, code);
  }
  return code;
}

}  // namespace perfgate::suite
