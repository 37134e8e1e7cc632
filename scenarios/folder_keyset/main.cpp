// folder_keyset: the scenario contract's plumbing (docs/scenario-contract.md).
//
//   folder_keyset seed --target DSN --params '{"subfolders":5000}'
//   folder_keyset run  --variant before|after --fixture DSN --params JSON [--test-perturb]
//
// A full walk of one folder's sub-folders, page by page until has_next is false. The digest
// covers the walked name sequence. --test-perturb swaps two adjacent names: a test-only way
// to show the equivalence gate trips.
#include <iostream>

#include "filecloud/filecloud.hpp"
#include "perfgate/sample.hpp"
#include "postgres/pg_client.hpp"
#include "walk.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;

namespace {

int run(const perfgate::Invocation& inv) {
  const int subfolders = inv.param<int>("subfolders");
  const int page_size = inv.param<int>("page_size", 500);
  if (page_size < 1) throw std::runtime_error("page_size must be at least 1");
  std::unique_ptr<folder_keyset::Walker> walker;
  if (inv.variant == "before")
    walker = folder_keyset::make_before(fc::walk_parent_folder_id(), page_size);
  else if (inv.variant == "after")
    walker = folder_keyset::make_after(fc::walk_parent_folder_id(), page_size);
  else
    throw std::runtime_error("unknown variant '" + inv.variant + "': expected before or after");

  pf::PgConnection conn(inv.fixture);
  fc::check_fixture(conn, "folder_tree", {{"subfolders", subfolders}});
  conn.exec("SET TimeZone = 'UTC'");
  for (const auto& s : walker->statements()) conn.prepare(s.name, s.sql, 0);

  std::vector<std::string> names;
  std::vector<double> page_ms;
  std::vector<folder_keyset::Statement> ran;
  perfgate::Stopwatch walk;
  for (;;) {
    const auto st = walker->next();
    perfgate::Stopwatch sw;
    const auto r = conn.exec_prepared(st.name, st.params);
    auto page = walker->read(r);
    page_ms.push_back(sw.ms());
    ran.push_back(st);
    if (static_cast<int>(page.names.size()) > page_size) throw std::runtime_error("a page exceeded page_size");
    for (auto& n : page.names) names.push_back(std::move(n));
    if (!page.has_next) break;
    if (page_ms.size() > static_cast<std::size_t>(subfolders) + 2) throw std::runtime_error("the walk does not end");
  }
  const double total_ms = walk.ms();
  if (names.size() != static_cast<std::size_t>(subfolders))
    throw std::runtime_error("walked " + std::to_string(names.size()) + " sub-folders, expected " +
                             std::to_string(subfolders));
  if (inv.has("test-perturb")) std::swap(names[names.size() / 2 - 1], names[names.size() / 2]);

  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  for (const auto& n : names) log.line(n);

  // Which plans the timed pages ran (the plan cache turns generic after five executions),
  // then the middle page once more through its prepared statement, explained.
  perfgate::json plan_counts = perfgate::json::object();
  for (const auto& [name, c] : pf::prepared_plan_counts(conn))
    plan_counts[name] = {{"generic", c.generic}, {"custom", c.custom}};
  const auto& mid = ran[ran.size() / 2];
  const auto plan = pf::explain_prepared(conn, mid.name, mid.sql, mid.params);
  perfgate::json explain = {
      {"page", ran.size() / 2 + 1}, {"of_pages", ran.size()}, {"statement", mid.name},      {"sql", mid.sql},
      {"plan", plan.plan},          {"source", plan.source},  {"plan_type", plan.plan_type}};
  if (!plan.note.empty()) explain["note"] = plan.note;

  perfgate::Report report;
  report.digest(digest.hex())
      .metric("total_ms", total_ms, "ms")
      .metric("ms_per_page_p50", perfgate::percentile(page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(page_ms, 0.99), "ms")
      .metric("pages", static_cast<double>(page_ms.size()), "count")
      .metric("rows", static_cast<double>(names.size()), "count")
      .series("page_ms", page_ms, "ms")
      .extra("explain", explain)
      .extra("plan_cache", plan_counts)
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  if (inv.has("test-perturb")) report.extra("test_perturb", true);
  report.print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::main_guard("folder_keyset", [&] {
    const auto inv = perfgate::parse_invocation(argc, argv);
    if (inv.command == "seed") {
      const auto stats = fc::seed_folder_tree(inv.target, {inv.param<int>("subfolders")});
      std::cout << stats.to_json().dump() << std::endl;
      return 0;
    }
    if (inv.command == "run") return run(inv);
    throw std::runtime_error("folder_keyset is a batch scenario: it has no `" + inv.command + "` command");
  });
}
