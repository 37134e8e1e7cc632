// folder_keyset's sample: a full walk of one folder's sub-folders, page by page until
// has_next is false. The pages are kept as returned and serialised after the timed walk: the
// digest covers every answer column (id, name) of every walked row, in order. Then, untimed,
// the walk after a write and the walk during a race (below). Before the walk, untimed, the
// fixture's catalog is checked against the seeded one (pg_scenario::check_fixture).
#include <functional>

#include "filecloud/filecloud.hpp"
#include "perfgate/outside_window.hpp"
#include "perfgate/percentile.hpp"
#include "walk.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
namespace pgs = perfgate::pg_scenario;

namespace folder_keyset {

namespace {

struct Walk {
  std::vector<std::pair<pf::PgResult, int>> pages;  // each page's result and its answer rows
  std::vector<double> page_ms;
  std::vector<Statement> ran;
  double total_ms = 0;
};

// `between`: called after each page but the last with the pages walked so far and the last
// name listed (untimed probes only; the timed walk passes none).
using Between = std::function<void(std::size_t pages, const std::string& last)>;

// `late_stopwatch`: the lie of that name, each page's stopwatch started once its query answered.
Walk walk(pf::PgConnection& conn, Walker& walker, int page_size, int subfolders, const Between& between = {},
          bool late_stopwatch = false) {
  Walk w;
  for (;;) {
    const auto st = walker.next();
    perfgate::Stopwatch sw;
    auto r = conn.exec_prepared(st.name, st.params);
    if (late_stopwatch) sw.restart();
    const auto page = walker.read(r);
    w.page_ms.push_back(sw.ms());
    w.total_ms += w.page_ms.back();
    w.ran.push_back(st);
    if (static_cast<int>(page.names.size()) > page_size) throw std::runtime_error("a page exceeded page_size");
    w.pages.emplace_back(std::move(r), static_cast<int>(page.names.size()));
    if (!page.has_next) break;
    if (w.page_ms.size() > static_cast<std::size_t>(subfolders) + 3) throw std::runtime_error("the walk does not end");
    if (between) between(w.pages.size(), page.names.back());
  }
  return w;
}

std::unique_ptr<Walker> make_walker(const perfgate::Invocation& inv, int page_size) {
  const std::string parent = fc::walk_parent_folder_id();
  return inv.variant == "after" ? make_after(parent, page_size, inv.lie) : make_before(parent, page_size);
}

// cache.freshness, asked (an AFTER may keep a listing across walks whether or not BEFORE
// does): in one transaction, rolled back after, a sub-folder is created (its name sorts first),
// project-00000 is renamed (to sort last) and project-00001 trashed; the walk again must list
// the folder as it is now. The lie "stale-listing" answers it from the timed walk's pages, as
// an AFTER that kept its listing would.
Walk walk_after_a_write(pf::PgConnection& conn, const perfgate::Invocation& inv, int page_size, int subfolders,
                        const Walk& timed) {
  const std::string parent = fc::walk_parent_folder_id();
  conn.exec("BEGIN");
  conn.exec_params(
      "INSERT INTO folders (id, name, parent_id, path, drive_id, is_trashed, created_at, updated_at) "
      "SELECT 'f0000000-0000-4000-8000-000000000049', 'project-0-new', id, path || '/project-0-new', drive_id, "
      "false, now(), now() FROM folders WHERE id = $1",
      {parent});
  conn.exec_params("UPDATE folders SET name = 'project-zz-renamed' WHERE parent_id = $1 AND name = 'project-00000'",
                   {parent});
  conn.exec_params("UPDATE folders SET is_trashed = true WHERE parent_id = $1 AND name = 'project-00001'", {parent});
  Walk again;
  if (inv.lying("stale-listing")) {
    again = timed;
  } else {
    again = walk(conn, *make_walker(inv, page_size), page_size, subfolders + 1);
  }
  conn.exec("ROLLBACK");
  return again;
}

// callers.race, asked: another caller, on a connection of its own, commits between pages 2
// and 3 a sub-folder named right after the cursor and trashes the folder's last sub-folder
// (both undone after the walk). OFFSET and keyset agree on writes ahead of the cursor: the
// walk must list the new one and leave out the trashed one. The lie "walk-read-once" fetches
// the whole walk at its first page, before the other caller writes, and serves the rest from
// that copy.
Walk walk_during_a_race(pf::PgConnection& conn, const perfgate::Invocation& inv, int page_size, int subfolders) {
  const std::string parent = fc::walk_parent_folder_id();
  const std::string id = "f0000000-0000-4000-8000-000000000050";
  pgs::OtherCaller other(inv.fixture);
  auto race = [&](std::size_t pages, const std::string& last) {
    if (pages != 2) return;
    const std::string trashed =
        conn.exec_params("SELECT id FROM folders WHERE parent_id = $1 AND NOT is_trashed ORDER BY name DESC LIMIT 1",
                         {parent})
            .str(0, 0);
    other.commit({{"INSERT INTO folders (id, name, parent_id, path, drive_id, is_trashed, created_at, updated_at) "
                   "SELECT $2, $3, id, path || '/' || $3, drive_id, false, created_at, updated_at FROM folders "
                   "WHERE id = $1",
                   {parent, id, last + "-new"}},
                  {"UPDATE folders SET is_trashed = true WHERE id = $1", {trashed}}},
                 {{"DELETE FROM folders WHERE id = $1", {id}},
                  {"UPDATE folders SET is_trashed = false WHERE id = $1", {trashed}}});
  };
  const auto walker = make_walker(inv, page_size);
  Walk w;
  if (inv.lying("walk-read-once")) {
    w = walk(conn, *walker, page_size, subfolders);
    race(2, w.pages.size() > 1 ? w.pages[1].first.str(page_size - 1, 1) : "");
  } else {
    w = walk(conn, *walker, page_size, subfolders + 1, race);
  }
  other.undo();
  return w;
}

}  // namespace

perfgate::Report run(const perfgate::Invocation& inv) {
  const int subfolders = inv.param<int>("subfolders");
  const int page_size = inv.param<int>("page_size", 500);
  if (page_size < 1) throw std::runtime_error("page_size must be at least 1");
  const auto walker = make_walker(inv, page_size);

  pf::PgConnection conn(inv.fixture);
  pgs::check_fixture(conn, "folder_tree", {{"subfolders", subfolders}});
  // The lie "helper-index": a covering index built once, by the first sample (the warm-up
  // round), that every later sample's pages read with an index-only scan.
  if (inv.lying("helper-index"))
    conn.exec(
        "CREATE INDEX IF NOT EXISTS idx_folders_walk ON folders (parent_id, name) INCLUDE (id) "
        "WHERE NOT is_trashed");
  pgs::prepare_session(conn, walker->statements());

  // perfgate reads its own clock where the timed walk begins and ends (self_reported: total_ms).
  const Walk timed = [&] {
    perfgate::OutsideWindow window("walk");
    return walk(conn, *walker, page_size, subfolders, {}, inv.lying("late-stopwatch"));
  }();
  pgs::Answers answers;
  for (const auto& [r, rows] : timed.pages) answers.add("", r, rows, kAnswerColumns);
  pgs::Answers after_write;
  for (const auto& [r, rows] : walk_after_a_write(conn, inv, page_size, subfolders, timed).pages)
    after_write.add("after a write", r, rows, kAnswerColumns);
  pgs::Answers during_race;
  for (const auto& [r, rows] : walk_during_a_race(conn, inv, page_size, subfolders).pages)
    during_race.add("during a race", r, rows, kAnswerColumns);

  perfgate::Report report;
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  answers.write(log);
  after_write.write(log);
  during_race.write(log);
  if (answers.rows() != static_cast<std::size_t>(subfolders))
    report.not_equivalent("walked " + std::to_string(answers.rows()) + " sub-folders, the folder holds " +
                          std::to_string(subfolders));
  const std::size_t mid = timed.ran.size() / 2;
  report.digest(digest.hex())
      .metric("total_ms", timed.total_ms, "ms")
      .metric("ms_per_page_p50", perfgate::percentile(timed.page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(timed.page_ms, 0.99), "ms")
      .metric("pages", static_cast<double>(timed.page_ms.size()), "count")
      .metric("rows", static_cast<double>(answers.rows()), "count")
      .series("page_ms", timed.page_ms, "ms")
      .extra("explain", pgs::explain_page(conn, timed.ran[mid], mid + 1, timed.ran.size()))
      .extra("plan_cache", pgs::plan_cache(conn))
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  return report;
}

}  // namespace folder_keyset
