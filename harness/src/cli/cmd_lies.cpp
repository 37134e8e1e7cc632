// `perfgate lies [SCENARIO...]`: run every declared lie against BEFORE and print lie → how it
// was caught (suite/lies.hpp). Exit 0 only when every lie was caught as declared.
#include <fstream>
#include <iomanip>
#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "plan/options.hpp"
#include "suite/lies.hpp"
#include "suite/threat_coverage.hpp"

namespace perfgate::cli {

namespace {

void print_table(std::ostream& out, const std::vector<suite::LieCheck>& checks) {
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

// Per scenario: threats listed (and classes n/a), threats with a lie, threats and lies caught.
void print_coverage(std::ostream& out, const suite::CoverageReport& r) {
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
  auto line = [&](const suite::ThreatCoverage& c) {
    row(c.scenario, std::to_string(c.threats), std::to_string(c.not_applicable), of(c.with_lie, c.threats),
        of(c.threats_caught, c.threats), of(c.lies_caught, c.lies));
  };
  for (const auto& c : r.scenarios) line(c);
  if (r.scenarios.size() > 1) line(r.total);
  if (r.findings.empty()) {
    out << "no findings: every class answered, every threat has a lie and every lie was caught\n";
    return;
  }
  out << r.findings.size() << " finding(s):\n";
  for (const auto& f : r.findings) out << "  " << f << "\n";
}

}  // namespace

void add_lies_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "lies",
      "Run every declared lie (an AFTER that does less on purpose) against BEFORE; exit 0 only if each "
      "was caught as declared (exit 3, or its exact-count gate)");
  auto names = std::make_shared<std::vector<std::string>>();
  auto lo = std::make_shared<suite::LiesOptions>();
  auto catalog_dir = std::make_shared<std::string>();
  auto json_path = std::make_shared<std::string>();
  auto cpus = std::make_shared<std::string>();
  auto seed = std::make_shared<std::uint64_t>(0);
  cmd->add_option("scenarios", *names, "Scenarios whose lies to check (default: every scenario of the catalog)");
  cmd->add_option("--profile", lo->profile, "Profile the lies run at")->capture_default_str();
  cmd->add_option("--rounds", lo->rounds, "Rounds per run (>= 2)")->capture_default_str();
  cmd->add_option("--repeat", lo->repeat, "Runs of each lie; caught only when caught in every one (>= 1)")
      ->capture_default_str();
  cmd->add_option("--catalog", *catalog_dir, "A folder of scenario folders instead of the bundled catalog");
  auto* seed_opt = cmd->add_option("--seed", *seed, "Seed of the runs (default: drawn)");
  cmd->add_option("--cpus", *cpus, "CPUs to pin samples to, e.g. 0 or 0-1");
  cmd->add_option("--json", *json_path, "Also write the table and the threat coverage as JSON to FILE");
  cmd->callback([=] {
    if (lo->rounds < 2) throw UsageError("--rounds must be at least 2");
    if (lo->repeat < 1) throw UsageError("--repeat must be at least 1");
    if (seed_opt->count()) lo->seed = *seed;
    if (!cpus->empty()) lo->cpus = plan::parse_cpu_list(*cpus);
    auto dir = catalog_dir->empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(*catalog_dir);
    auto catalog = catalog::load_catalog(dir);
    Progress progress(false);
    suite::StatusLine status{[&](const std::string& t) { progress.update(t); }, [&] { progress.clear(); }};
    const auto checks = suite::check_lies(catalog, *names, *lo, argv, status);
    const auto coverage = suite::threat_coverage(catalog, checks);
    print_table(std::cout, checks);
    print_coverage(std::cout, coverage);
    if (!json_path->empty()) {
      nlohmann::json lies = nlohmann::json::array();
      for (const auto& c : checks) lies.push_back(suite::to_json(c));
      std::ofstream(*json_path) << nlohmann::json{{"lies", lies}, {"coverage", suite::to_json(coverage)}}.dump(2)
                                << "\n";
    }
    set_exit_code(suite::lies_exit_code(checks));
  });
}

}  // namespace perfgate::cli
