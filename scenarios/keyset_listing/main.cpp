// keyset_listing: the scenario contract's plumbing (docs/scenario-contract.md).
//
//   keyset_listing seed --target DSN --params '{"folders":300,"files":20000}'
//   keyset_listing run  --variant before|before-with-indexes|after --fixture DSN --params JSON
//                       [--test-perturb name|mtime]
//
// Variants: `before` runs before.cpp's SQL on the schema without the listing indexes
// (`premigration`), `before-with-indexes` the same SQL on the schema with them (`migrated`,
// same rows), `after` runs after.cpp's SQL on `migrated`. Both orders are drained page by
// page; the digest covers the (type, id) sequence of both. --test-perturb swaps two
// adjacent rows of one order's sequence: a test-only way to show the equivalence gate trips.
#include <iostream>
#include <map>

#include "filecloud/filecloud.hpp"
#include "listing.hpp"
#include "perfgate/sample.hpp"
#include "postgres/pg_client.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
using keyset_listing::Cursor;
using keyset_listing::Order;

namespace {

struct Entry {
  std::string type, id, name, size, updated_at, sort_str;
};

struct Drain {
  std::vector<Entry> entries;
  std::vector<double> page_ms;
  std::vector<std::optional<Cursor>> cursors;  // the cursor each page started from
};

Cursor cursor_after(const Entry& e) { return {e.type == "file", e.sort_str, e.updated_at, e.id}; }

Drain drain(pf::PgConnection& conn, const keyset_listing::Lister& lister, Order order, int limit) {
  Drain d;
  std::optional<Cursor> cursor;
  for (;;) {
    const auto st = lister.page(order, cursor, limit);
    perfgate::Stopwatch sw;
    const auto r = conn.exec_prepared(st.name, st.params);
    std::vector<Entry> page;
    page.reserve(static_cast<std::size_t>(r.rows()));
    for (int i = 0; i < r.rows(); ++i)
      page.push_back({r.str(i, 0), r.str(i, 1), r.str(i, 2), r.str(i, 3), r.str(i, 4), r.str(i, 5)});
    d.page_ms.push_back(sw.ms());
    d.cursors.push_back(cursor);
    if (r.rows() > limit) throw std::runtime_error("a page returned more than " + std::to_string(limit) + " rows");
    for (auto& e : page) d.entries.push_back(std::move(e));
    if (r.rows() < limit) break;  // the last page (possibly empty)
    cursor = cursor_after(d.entries.back());
  }
  return d;
}

void perturb(std::vector<Entry>& entries) {
  if (entries.size() < 2) throw std::runtime_error("--test-perturb needs at least two rows");
  const std::size_t i = entries.size() / 2;
  std::swap(entries[i - 1], entries[i]);
}

int run(const perfgate::Invocation& inv) {
  const fc::ListingParams params{inv.param<int>("folders"), inv.param<int>("files")};
  const int limit = inv.param<int>("page_size", 200);
  if (limit < 1) throw std::runtime_error("page_size must be at least 1");
  std::string schema;
  std::unique_ptr<keyset_listing::Lister> lister;
  if (inv.variant == "before") {
    schema = "premigration";
    lister = keyset_listing::make_before(fc::listing_folder_id());
  } else if (inv.variant == "before-with-indexes") {
    schema = "migrated";
    lister = keyset_listing::make_before(fc::listing_folder_id());
  } else if (inv.variant == "after") {
    schema = "migrated";
    lister = keyset_listing::make_after(fc::listing_folder_id());
  } else {
    throw std::runtime_error("unknown variant '" + inv.variant + "': expected before, before-with-indexes or after");
  }
  const std::string perturbed = inv.flag("test-perturb");
  if (inv.has("test-perturb") && perturbed != "name" && perturbed != "mtime")
    throw std::runtime_error("--test-perturb takes name or mtime");

  pf::PgConnection conn(inv.fixture);
  fc::check_fixture(conn, "listing", {{"folders", params.folders}, {"files", params.files}});
  conn.exec("SET search_path = " + schema);
  conn.exec("SET TimeZone = 'UTC'");
  for (const auto& s : lister->statements()) conn.prepare(s.name, s.sql, 0);

  Drain by_name = drain(conn, *lister, Order::Name, limit);
  Drain by_mtime = drain(conn, *lister, Order::Modified, limit);
  const std::size_t expected = static_cast<std::size_t>(params.folders + params.files);
  if (by_name.entries.size() != expected || by_mtime.entries.size() != expected)
    throw std::runtime_error("drained " + std::to_string(by_name.entries.size()) + " and " +
                             std::to_string(by_mtime.entries.size()) + " rows, expected " + std::to_string(expected));
  if (perturbed == "name") perturb(by_name.entries);
  if (perturbed == "mtime") perturb(by_mtime.entries);

  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  for (const auto& e : by_name.entries) log.line("name\t" + e.type + "\t" + e.id);
  for (const auto& e : by_mtime.entries) log.line("mtime\t" + e.type + "\t" + e.id);

  // Which plans the timed pages ran (the plan cache turns generic after five executions).
  perfgate::json plan_counts = perfgate::json::object();
  for (const auto& [name, c] : pf::prepared_plan_counts(conn))
    plan_counts[name] = {{"generic", c.generic}, {"custom", c.custom}};

  // One representative page per order, explained after the timed drains: the middle one,
  // re-executed through its prepared statement so the plan is the one the pages ran.
  auto explain = [&](Order order, const Drain& d) {
    const std::size_t mid = d.cursors.size() / 2;
    const auto st = lister->page(order, d.cursors[mid], limit);
    const auto plan = pf::explain_prepared(conn, st.name, st.sql, st.params);
    perfgate::json j = {
        {"page", mid + 1},   {"of_pages", d.cursors.size()}, {"statement", st.name},       {"sql", st.sql},
        {"plan", plan.plan}, {"source", plan.source},        {"plan_type", plan.plan_type}};
    if (!plan.note.empty()) j["note"] = plan.note;
    return j;
  };
  auto sum = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s;
  };
  perfgate::Report report;
  report.digest(digest.hex())
      .metric("ms_per_page_p50", perfgate::percentile(by_name.page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(by_name.page_ms, 0.99), "ms")
      .metric("total_ms", sum(by_name.page_ms), "ms")
      .metric("pages", static_cast<double>(by_name.page_ms.size()), "count")
      .metric("mtime_ms_per_page_p50", perfgate::percentile(by_mtime.page_ms, 0.5), "ms")
      .metric("mtime_ms_per_page_p99", perfgate::percentile(by_mtime.page_ms, 0.99), "ms")
      .metric("mtime_total_ms", sum(by_mtime.page_ms), "ms")
      .metric("rows", static_cast<double>(by_name.entries.size() + by_mtime.entries.size()), "count")
      .series("page_ms", by_name.page_ms, "ms")
      .series("mtime_page_ms", by_mtime.page_ms, "ms")
      .extra("explain", explain(Order::Name, by_name))
      .extra("explain_mtime", explain(Order::Modified, by_mtime))
      .extra("plan_cache", plan_counts)
      .extra("schema", schema)
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  if (!perturbed.empty()) report.extra("test_perturb", perturbed);
  report.print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::main_guard("keyset_listing", [&] {
    const auto inv = perfgate::parse_invocation(argc, argv);
    if (inv.command == "seed") {
      const auto stats = fc::seed_listing(inv.target, {inv.param<int>("folders"), inv.param<int>("files")});
      std::cout << stats.to_json().dump() << std::endl;
      return 0;
    }
    if (inv.command == "run") return run(inv);
    throw std::runtime_error("keyset_listing is a batch scenario: it has no `" + inv.command + "` command");
  });
}
