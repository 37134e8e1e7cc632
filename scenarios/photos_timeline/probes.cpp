// photos_timeline's probes: questions the timed pages never ask, asked after the timed window
// (untimed) on the same connection and session, each write in a transaction rolled back
// after, every page digested under its probe's label so BEFORE and AFTER must agree on it.
//
//   "revoked grant"    cache.freshness: the caller's grant on drive 0 deleted, then a second
//                      listing through the timed timeline object (start() and page 1): drive
//                      0's photos are gone (lie remembered-drives).
//   "tied dates"       query.ties: 150 visible photos across the three drives given one
//                      media_sort_date, the run straddling the end of page 1; the pages through
//                      it list them in id DESC order, none skipped or repeated (lie
//                      date-only-cursor).
//   "added between"    work.deferred: a photo added on drive 0 after page 1, dated just older
//                      than page 1's last row: page 2 starts with it (lie pages-in-start).
//   "two callers"      callers.race: timelines for the caller (A) and user 2 (B, who holds only
//                      the drive the caller may not see): A start, B start, A page 1, B page 1,
//                      A page 2; each lists its own drives (lie shared-drive-slot).
// Fixed ids, names and timestamps: the rows are digested.
#include <algorithm>
#include <stdexcept>

#include "filecloud/filecloud.hpp"
#include "timeline.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
namespace pgs = perfgate::pg_scenario;

namespace photos_timeline {

namespace {

constexpr int kTied = 150;

std::string drive_id(int d) { return fc::uuid_for("photos.drive", static_cast<std::uint64_t>(d)); }

// One page through `t` after `cursor`, added under "<label>: page <n>"; returns the cursor
// after it (unchanged when the page is empty).
std::optional<Cursor> list_page(pf::PgConnection& conn, const Timeline& t, std::optional<Cursor> cursor, int limit,
                                const std::string& label, int n, pgs::Answers& answers) {
  const auto st = t.page(cursor, limit);
  auto r = conn.exec_prepared(st.name, st.params);
  if (const int rows = r.rows(); rows > 0) cursor = Cursor{r.str(rows - 1, 4), r.str(rows - 1, 0)};
  answers.add(label + ": page " + std::to_string(n), std::move(r));
  return cursor;
}

void revoked_grant(pf::PgConnection& conn, Timeline& timed, int limit, pgs::Answers& answers) {
  conn.exec("BEGIN");
  conn.exec_params(
      "DELETE FROM role_grants WHERE subject_type = 'user' AND subject_id = $1 AND resource_type = 'drive' "
      "AND resource_id = $2",
      {fc::caller_user_id(), drive_id(0)});
  timed.start(conn);
  list_page(conn, timed, std::nullopt, limit, "revoked grant", 1, answers);
  conn.exec("ROLLBACK");
}

void tied_dates(pf::PgConnection& conn, const MakeTimeline& make, int drives, int limit, pgs::Answers& answers) {
  std::string visible = "{";
  for (int d = 0; d < drives; ++d) visible += (d ? "," : "") + drive_id(d);
  visible += "}";
  // The run starts kTied / 2 rows before page 1's end (or at the top when pages are short).
  const int first = std::max(0, limit - kTied / 2);
  conn.exec("BEGIN");
  conn.exec_params(R"sql(
WITH tied AS (
  SELECT f.id, f.media_sort_date FROM files f
   WHERE f.drive_id = ANY($1::uuid[]) AND NOT f.is_trashed
     AND (f.mime_type LIKE 'image/%' OR f.mime_type LIKE 'video/%')
   ORDER BY f.media_sort_date DESC, f.id DESC OFFSET $2 LIMIT $3)
UPDATE files SET media_sort_date = (SELECT max(media_sort_date) FROM tied) WHERE id IN (SELECT id FROM tied))sql",
                   {visible, std::to_string(first), std::to_string(kTied)});
  const auto t = make(fc::caller_user_id());
  t->start(conn);
  std::optional<Cursor> cursor;
  const int pages = (first + kTied) / limit + 1;  // through the row after the run
  for (int p = 1; p <= pages; ++p) cursor = list_page(conn, *t, cursor, limit, "tied dates", p, answers);
  conn.exec("ROLLBACK");
}

void two_callers(pf::PgConnection& conn, const MakeTimeline& make, int limit, pgs::Answers& answers) {
  const auto a = make(fc::caller_user_id());
  const auto b = make(fc::uuid_for("user", 2));
  a->start(conn);
  b->start(conn);
  const auto after_a = list_page(conn, *a, std::nullopt, limit, "two callers, the caller", 1, answers);
  list_page(conn, *b, std::nullopt, limit, "two callers, user 2", 1, answers);
  list_page(conn, *a, after_a, limit, "two callers, the caller", 2, answers);
}

void added_between_pages(pf::PgConnection& conn, const MakeTimeline& make, int limit, pgs::Answers& answers) {
  const auto t = make(fc::caller_user_id());
  t->start(conn);
  const auto cursor = list_page(conn, *t, std::nullopt, limit, "added between", 1, answers);
  if (!cursor) throw std::runtime_error("the caller's timeline is empty");
  const std::string id = "f0000000-0000-4000-8000-0000000000a9";
  conn.exec("BEGIN");
  conn.exec_params(R"sql(
INSERT INTO files (id, name, folder_id, drive_id, size, mime_type, is_trashed, created_at, updated_at,
                   media_sort_date, category_order)
SELECT $1::uuid, 'IMG_ADDED.JPG', fo.id, fo.drive_id, 4242, 'image/jpeg', false, '2026-12-07 00:00:00+00',
       '2026-12-07 00:00:00+00', $3::timestamptz - interval '1 millisecond', 1
  FROM folders fo WHERE fo.drive_id = $2 AND fo.parent_id IS NOT NULL ORDER BY fo.id LIMIT 1)sql",
                   {id, drive_id(0), cursor->media_sort_date});
  conn.exec_params(
      "INSERT INTO file_metadata (file_id, captured_at, width, height, camera_make, camera_model) "
      "SELECT id, media_sort_date, 4032, 3024, 'Apple', 'iPhone 15' FROM files WHERE id = $1",
      {id});
  list_page(conn, *t, cursor, limit, "added between", 2, answers);
  conn.exec("ROLLBACK");
}

}  // namespace

void ask_probes(pf::PgConnection& conn, Timeline& timed, const MakeTimeline& make, int drives, int limit,
                pgs::Answers& answers) {
  revoked_grant(conn, timed, limit, answers);
  tied_dates(conn, make, drives, limit, answers);
  added_between_pages(conn, make, limit, answers);
  two_callers(conn, make, limit, answers);
}

}  // namespace photos_timeline
