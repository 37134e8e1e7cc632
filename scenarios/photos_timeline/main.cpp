// photos_timeline: the scenario contract's plumbing (docs/scenario-contract.md).
//
//   photos_timeline seed --target DSN --params '{"images":50000,"drives":3}'
//   photos_timeline run  --variant before|after --fixture DSN --params JSON [--test-perturb]
//
// `pages` pages of `page_size`, newest first, keyset by (media_sort_date, id). The digest
// covers the page-by-page id sequences. --test-perturb swaps two adjacent ids of the middle
// page: a test-only way to show the equivalence gate trips.
#include <iostream>

#include "filecloud/filecloud.hpp"
#include "perfgate/sample.hpp"
#include "postgres/pg_client.hpp"
#include "timeline.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
using photos_timeline::Cursor;

namespace {

perfgate::json plan_json(const pf::PagePlan& p) {
  perfgate::json j = {{"plan", p.plan}, {"source", p.source}, {"plan_type", p.plan_type}};
  if (!p.note.empty()) j["note"] = p.note;
  return j;
}

int run(const perfgate::Invocation& inv) {
  const fc::PhotosParams params{inv.param<int>("images"), inv.param<int>("drives")};
  const int pages = inv.param<int>("pages", 10);
  const int limit = inv.param<int>("page_size", 100);
  if (pages < 1 || limit < 1) throw std::runtime_error("pages and page_size must be at least 1");
  std::unique_ptr<photos_timeline::Timeline> timeline;
  if (inv.variant == "before")
    timeline = photos_timeline::make_before(fc::caller_user_id(), fc::photos_now());
  else if (inv.variant == "after")
    timeline = photos_timeline::make_after(fc::caller_user_id(), fc::photos_now());
  else
    throw std::runtime_error("unknown variant '" + inv.variant + "': expected before or after");

  pf::PgConnection conn(inv.fixture);
  fc::check_fixture(conn, "photos", {{"images", params.images}, {"drives", params.drives}});
  conn.exec("SET TimeZone = 'UTC'");
  for (const auto& s : timeline->statements()) conn.prepare(s.name, s.sql, 0);

  std::vector<std::vector<std::string>> ids(static_cast<std::size_t>(pages));
  std::vector<double> page_ms;
  std::vector<photos_timeline::Statement> ran;
  std::optional<Cursor> cursor;
  perfgate::Stopwatch listing;
  for (int p = 0; p < pages; ++p) {
    perfgate::Stopwatch sw;
    if (p == 0) timeline->start(conn);  // once per listing; counted in the first page
    const auto st = timeline->page(cursor, limit);
    const auto r = conn.exec_prepared(st.name, st.params);
    auto& page = ids[static_cast<std::size_t>(p)];
    for (int i = 0; i < r.rows(); ++i) page.push_back(r.str(i, 0));
    if (r.rows() > 0) cursor = Cursor{r.str(r.rows() - 1, 4), r.str(r.rows() - 1, 0)};
    page_ms.push_back(sw.ms());
    ran.push_back(st);
    if (r.rows() != limit)
      throw std::runtime_error("page " + std::to_string(p + 1) + " held " + std::to_string(r.rows()) +
                               " rows, expected " + std::to_string(limit) + ": the library is too small");
  }
  const double total_ms = listing.ms();
  if (inv.has("test-perturb")) {
    auto& mid = ids[ids.size() / 2];
    std::swap(mid[mid.size() / 2 - 1], mid[mid.size() / 2]);
  }

  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  for (std::size_t p = 0; p < ids.size(); ++p)
    for (const auto& id : ids[p]) log.line("page " + std::to_string(p + 1) + "\t" + id);

  // Which plans the timed pages ran (the plan cache turns generic after five executions),
  // then the middle page once more through its prepared statement, explained.
  perfgate::json plan_counts = perfgate::json::object();
  for (const auto& [name, c] : pf::prepared_plan_counts(conn))
    plan_counts[name] = {{"generic", c.generic}, {"custom", c.custom}};
  const std::size_t mid = ran.size() / 2;
  auto plan = plan_json(pf::explain_prepared(conn, ran[mid].name, ran[mid].sql, ran[mid].params));
  plan["page"] = mid + 1;
  plan["of_pages"] = ran.size();
  plan["statement"] = ran[mid].name;
  plan["sql"] = ran[mid].sql;

  perfgate::Report report;
  report.digest(digest.hex())
      .metric("ms_per_page_p50", perfgate::percentile(page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(page_ms, 0.99), "ms")
      .metric("total_ms", total_ms, "ms")
      .metric("pages", static_cast<double>(page_ms.size()), "count")
      .series("page_ms", page_ms, "ms")
      .extra("explain", plan)
      .extra("plan_cache", plan_counts)
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  if (inv.has("test-perturb")) report.extra("test_perturb", true);
  report.print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::main_guard("photos_timeline", [&] {
    const auto inv = perfgate::parse_invocation(argc, argv);
    if (inv.command == "seed") {
      const auto stats = fc::seed_photos(inv.target, {inv.param<int>("images"), inv.param<int>("drives")});
      std::cout << stats.to_json().dump() << std::endl;
      return 0;
    }
    if (inv.command == "run") return run(inv);
    throw std::runtime_error("photos_timeline is a batch scenario: it has no `" + inv.command + "` command");
  });
}
