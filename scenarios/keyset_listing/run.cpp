// keyset_listing's sample: both orders drained page by page with the variant's statements.
// The pages are kept as returned and serialised after the timed window: the digest covers
// every column of every row (type, id, name, size, updated_at, sort_str), in both orders, and
// the name order again after a write and during a race (untimed, below). Before the drains,
// untimed, the fixture's catalog is checked against the seeded one (pg_scenario::check_fixture).
#include <functional>
#include <numeric>

#include "filecloud/filecloud.hpp"
#include "listing.hpp"
#include "perfgate/outside_window.hpp"
#include "perfgate/percentile.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
namespace pgs = perfgate::pg_scenario;

namespace keyset_listing {

namespace {

struct Drain {
  std::vector<pf::PgResult> pages;
  std::size_t rows = 0;
  std::vector<double> page_ms;
  std::vector<std::optional<Cursor>> cursors;  // the cursor each page started from
};

// Columns: type, id, name, size, updated_at, sort_str (listing.hpp).
Cursor cursor_after(const pf::PgResult& r, int row) {
  return {r.str(row, 0) == "file", r.str(row, 5), r.str(row, 4), r.str(row, 1)};
}

// `max_pages` < 0: to the end. The lie "stop-early" stops the name order half-way. `between`:
// called after each full page with the pages drained so far and the cursor (untimed probes
// only; the timed drains pass none).
using Between = std::function<void(std::size_t pages, const Cursor& cursor)>;

// `late_stopwatch`: the lie of that name, each page's stopwatch started once its query answered.
Drain drain(pf::PgConnection& conn, const Lister& lister, Order order, int limit, int max_pages,
            const Between& between = {}, bool late_stopwatch = false) {
  Drain d;
  std::optional<Cursor> cursor;
  for (;;) {
    const auto st = lister.page(order, cursor, limit);
    perfgate::Stopwatch sw;
    auto r = conn.exec_prepared(st.name, st.params);
    if (late_stopwatch) sw.restart();
    d.page_ms.push_back(sw.ms());
    d.cursors.push_back(cursor);
    if (r.rows() > limit) throw std::runtime_error("a page returned more than " + std::to_string(limit) + " rows");
    d.rows += static_cast<std::size_t>(r.rows());
    const int n = r.rows();
    if (n > 0) cursor = cursor_after(r, n - 1);
    d.pages.push_back(std::move(r));
    if (n < limit || static_cast<int>(d.page_ms.size()) == max_pages) break;
    if (between) between(d.pages.size(), *cursor);
  }
  return d;
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void write(perfgate::OutputLog& log, const char* label, const Drain& d) {
  pgs::Answers answers;
  for (const auto& page : d.pages) answers.add(label, page);
  answers.write(log);
}

// cache.freshness, asked (an AFTER may keep a listing across drains whether or not BEFORE
// does): in one transaction, rolled back after, File_00000000.JPG is added (it sorts first among
// the files), File_00000001.JPG renamed File_99999999.JPG (last) and File_00000002.JPG trashed;
// the name order drained again must show the folder as it is now. Fixed timestamps: the rows are
// digested. The lie "stale-listing" answers it from the timed drain, as a kept listing would.
Drain drain_after_a_write(pf::PgConnection& conn, const perfgate::Invocation& inv, const Lister& lister, int limit,
                          const Drain& timed) {
  const std::string folder = fc::listing_folder_id();
  conn.exec("BEGIN");
  conn.exec_params(
      "INSERT INTO files (id, name, folder_id, drive_id, size, mime_type, is_trashed, created_at, updated_at, "
      "media_sort_date, category_order) SELECT 'f0000000-0000-4000-8000-000000000049', 'File_00000000.JPG', id, "
      "drive_id, 4242, 'image/jpeg', false, '2026-12-07 00:00:00+00', '2026-12-07 00:00:00+00', "
      "'2026-12-07 00:00:00+00', 1 FROM folders WHERE id = $1",
      {folder});
  conn.exec_params(
      "UPDATE files SET name = 'File_99999999.JPG', updated_at = '2026-12-07 00:01:00+00' "
      "WHERE folder_id = $1 AND name = 'File_00000001.JPG'",
      {folder});
  conn.exec_params("UPDATE files SET is_trashed = true WHERE folder_id = $1 AND name = 'File_00000002.JPG'", {folder});
  Drain again = inv.lying("stale-listing") ? timed : drain(conn, lister, Order::Name, limit, -1);
  conn.exec("ROLLBACK");
  return again;
}

// callers.race, asked: another caller, on a connection of its own, commits between pages 2 and 3
// a file named right after the cursor and trashes the folder's last file in name order (both
// undone after the drain). Both variants are keyset drains: the name order drained a third time
// must list the new file and leave out the trashed one. The lie "drain-read-once" fetches the
// whole drain at its first page, before the other caller writes, and serves the rest from it.
Drain drain_during_a_race(pf::PgConnection& conn, const perfgate::Invocation& inv, const Lister& lister, int limit,
                          const std::string& schema) {
  const std::string folder = fc::listing_folder_id();
  const std::string id = "f0000000-0000-4000-8000-000000000050";
  pgs::OtherCaller other(inv.fixture);
  auto race = [&](std::size_t pages, const Cursor& cursor) {
    if (pages != 2) return;
    const std::string trashed = conn.exec_params(
                                        "SELECT id FROM files WHERE folder_id = $1 AND NOT is_trashed ORDER BY "
                                        "LOWER(name) DESC, id DESC LIMIT 1",
                                        {folder})
                                    .str(0, 0);
    other.commit({{"INSERT INTO " + schema +
                       ".files (id, name, folder_id, drive_id, size, mime_type, is_trashed, created_at, updated_at, "
                       "media_sort_date, category_order) SELECT $2, $3, id, drive_id, 4242, 'image/jpeg', false, "
                       "'2026-12-07 00:00:00+00', '2026-12-07 00:00:00+00', '2026-12-07 00:00:00+00', 1 FROM " +
                       schema + ".folders WHERE id = $1",
                   {folder, id, cursor.sort_str + " (2)"}},
                  {"UPDATE " + schema + ".files SET is_trashed = true WHERE id = $1", {trashed}}},
                 {{"DELETE FROM " + schema + ".files WHERE id = $1", {id}},
                  {"UPDATE " + schema + ".files SET is_trashed = false WHERE id = $1", {trashed}}});
  };
  Drain d;
  if (inv.lying("drain-read-once")) {
    d = drain(conn, lister, Order::Name, limit, -1);
    if (d.pages.size() > 2) race(2, *d.cursors[2]);
  } else {
    d = drain(conn, lister, Order::Name, limit, -1, race);
  }
  other.undo();
  return d;
}

}  // namespace

perfgate::Report run(const perfgate::Invocation& inv) {
  const fc::ListingParams params{inv.param<int>("folders"), inv.param<int>("files")};
  const int limit = inv.param<int>("page_size", 200);
  if (limit < 1) throw std::runtime_error("page_size must be at least 1");
  const std::string schema = inv.variant == "before" ? "premigration" : "migrated";
  const auto lister = inv.variant == "after"
                          ? make_after(fc::listing_folder_id(), {inv.lying("null-size"), inv.lying("no-tiebreak")})
                          : make_before(fc::listing_folder_id());

  pf::PgConnection conn(inv.fixture);
  pgs::check_fixture(conn, "listing", {{"folders", params.folders}, {"files", params.files}});
  conn.exec("SET search_path = " + schema);
  // The lie "helper-index": a covering index built once, by the first sample (the warm-up round),
  // that every later sample's file pages read with an index-only scan.
  if (inv.lying("helper-index"))
    conn.exec(
        "CREATE INDEX IF NOT EXISTS idx_files_listing ON files (folder_id, LOWER(name), id) "
        "INCLUDE (name, size, updated_at) WHERE NOT is_trashed");
  pgs::prepare_session(conn, lister->statements());

  const std::size_t expected = static_cast<std::size_t>(params.folders + params.files);
  const int name_pages = inv.lying("stop-early") ? static_cast<int>(expected / limit / 2 + 1) : -1;
  // perfgate reads its own clock where each timed drain begins and ends (self_reported).
  const bool late = inv.lying("late-stopwatch");
  Drain by_name = [&] {
    perfgate::OutsideWindow window("name_drain");
    return drain(conn, *lister, Order::Name, limit, name_pages, {}, late);
  }();
  Drain by_mtime = [&] {
    perfgate::OutsideWindow window("mtime_drain");
    return drain(conn, *lister, Order::Modified, limit, -1, {}, late);
  }();
  const Drain after_write = drain_after_a_write(conn, inv, *lister, limit, by_name);
  const Drain during_race = drain_during_a_race(conn, inv, *lister, limit, schema);

  perfgate::Report report;
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  write(log, "name", by_name);
  write(log, "mtime", by_mtime);
  write(log, "name after a write", after_write);
  write(log, "name during a race", during_race);
  for (const auto* d : {&by_name, &by_mtime})
    if (d->rows != expected)
      report.not_equivalent("drained " + std::to_string(d->rows) + " rows in " +
                            (d == &by_name ? "name" : "modification") + " order, the folder holds " +
                            std::to_string(expected));

  // One representative page per order, explained after the timed drains: the middle one.
  auto explain = [&](Order order, const Drain& d) {
    const std::size_t mid = d.cursors.size() / 2;
    return pgs::explain_page(conn, lister->page(order, d.cursors[mid], limit), mid + 1, d.cursors.size());
  };
  report.digest(digest.hex())
      .metric("ms_per_page_p50", perfgate::percentile(by_name.page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(by_name.page_ms, 0.99), "ms")
      .metric("total_ms", sum(by_name.page_ms), "ms")
      .metric("pages", static_cast<double>(by_name.page_ms.size()), "count")
      .metric("mtime_ms_per_page_p50", perfgate::percentile(by_mtime.page_ms, 0.5), "ms")
      .metric("mtime_ms_per_page_p99", perfgate::percentile(by_mtime.page_ms, 0.99), "ms")
      .metric("mtime_total_ms", sum(by_mtime.page_ms), "ms")
      .metric("rows", static_cast<double>(by_name.rows + by_mtime.rows), "count")
      .series("page_ms", by_name.page_ms, "ms")
      .series("mtime_page_ms", by_mtime.page_ms, "ms")
      .extra("explain", explain(Order::Name, by_name))
      .extra("explain_mtime", explain(Order::Modified, by_mtime))
      .extra("plan_cache", pgs::plan_cache(conn))
      .extra("schema", schema)
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  return report;
}

}  // namespace keyset_listing
