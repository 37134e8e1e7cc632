// photos_timeline's sample: `pages` pages of `page_size`, newest first, keyset by
// (media_sort_date, id). The pages are kept as returned and serialised after the timed
// window: the digest covers every column of every row (id, name, mime_type, size,
// media_sort_date, path, width, height, camera_make, camera_model), page by page, then the
// pages of the untimed probes (probes.cpp) asked after the timed window. start() is timed into
// page 1 and also reported alone (start_ms).
#include <optional>

#include "filecloud/filecloud.hpp"
#include "perfgate/outside_window.hpp"
#include "perfgate/percentile.hpp"
#include "timeline.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
namespace pgs = perfgate::pg_scenario;

namespace photos_timeline {

perfgate::Report run(const perfgate::Invocation& inv) {
  const fc::PhotosParams params{inv.param<int>("images"), inv.param<int>("drives")};
  const int pages = inv.param<int>("pages", 10);
  const int limit = inv.param<int>("page_size", 100);
  if (pages < 1 || limit < 1) throw std::runtime_error("pages and page_size must be at least 1");
  const MakeTimeline make = [&inv](const std::string& user) {
    return inv.variant == "after" ? make_after(user, fc::photos_now(), inv.lie) : make_before(user, fc::photos_now());
  };
  const auto timeline = make(fc::caller_user_id());

  pf::PgConnection conn(inv.fixture);
  pgs::check_fixture(conn, "photos", {{"images", params.images}, {"drives", params.drives}});  // catalog too
  if (inv.lying("helper-index"))  // a covering timeline index built by the warm-up round, read after
    conn.exec(
        "CREATE INDEX IF NOT EXISTS idx_files_timeline_cover ON files (drive_id, media_sort_date DESC, id DESC) "
        "INCLUDE (name, mime_type, size, folder_id) "
        "WHERE NOT is_trashed AND (mime_type LIKE 'image/%' OR mime_type LIKE 'video/%')");
  pgs::prepare_session(conn, timeline->statements());

  pgs::Answers answers;
  std::vector<double> page_ms;
  std::vector<Statement> ran;
  std::optional<Cursor> cursor;
  double total_ms = 0, start_ms = 0;
  // perfgate reads its own clock where the timed pages begin and end (self_reported: total_ms).
  std::optional<perfgate::OutsideWindow> window;
  window.emplace("pages");
  const bool late = inv.lying("late-stopwatch");
  for (int p = 0; p < pages; ++p) {
    perfgate::Stopwatch sw;
    if (p == 0) {  // once per listing; counted in the first page
      perfgate::Stopwatch start_sw;
      timeline->start(conn);
      start_ms = start_sw.ms();
    }
    const auto st = timeline->page(cursor, limit);
    auto r = conn.exec_prepared(st.name, st.params);
    if (late) sw.restart();  // the lie "late-stopwatch": the query left out of its page's time
    page_ms.push_back(sw.ms());
    total_ms += page_ms.back();
    const int n = r.rows();
    if (n > 0) cursor = Cursor{r.str(n - 1, 4), r.str(n - 1, 0)};
    ran.push_back(st);
    answers.add("page " + std::to_string(p + 1), std::move(r));
    if (n != limit)
      throw std::runtime_error("page " + std::to_string(p + 1) + " held " + std::to_string(n) + " rows, expected " +
                               std::to_string(limit) + ": the library is too small");
  }

  window.reset();

  // The plan evidence is of the timed pages, taken before the probes run more statements.
  const std::size_t mid = ran.size() / 2;
  const auto explain = pgs::explain_page(conn, ran[mid], mid + 1, ran.size());
  const auto plan_cache = pgs::plan_cache(conn);
  ask_probes(conn, *timeline, make, params.drives, limit, answers);  // untimed

  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  answers.write(log);
  perfgate::Report report;
  report.digest(digest.hex())
      .metric("ms_per_page_p50", perfgate::percentile(page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(page_ms, 0.99), "ms")
      .metric("total_ms", total_ms, "ms")
      .metric("start_ms", start_ms, "ms")
      .metric("pages", static_cast<double>(page_ms.size()), "count")
      .series("page_ms", page_ms, "ms")
      .extra("explain", explain)
      .extra("plan_cache", plan_cache)
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  return report;
}

}  // namespace photos_timeline
