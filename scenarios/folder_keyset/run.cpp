// folder_keyset's sample: a full walk of one folder's sub-folders, page by page until
// has_next is false. The pages are kept as returned and serialised after the timed walk: the
// digest covers every answer column (id, name) of every walked row, in order.
#include "filecloud/filecloud.hpp"
#include "perfgate/percentile.hpp"
#include "walk.hpp"

namespace fc = perfgate::seeders::filecloud;
namespace pf = perfgate::fixtures;
namespace pgs = perfgate::pg_scenario;

namespace folder_keyset {

perfgate::Report run(const perfgate::Invocation& inv) {
  const int subfolders = inv.param<int>("subfolders");
  const int page_size = inv.param<int>("page_size", 500);
  if (page_size < 1) throw std::runtime_error("page_size must be at least 1");
  const auto walker = inv.variant == "after" ? make_after(fc::walk_parent_folder_id(), page_size, inv.lie)
                                             : make_before(fc::walk_parent_folder_id(), page_size);

  pf::PgConnection conn(inv.fixture);
  fc::check_fixture(conn, "folder_tree", {{"subfolders", subfolders}});
  pgs::prepare_session(conn, walker->statements());

  pgs::Answers answers;
  std::vector<double> page_ms;
  std::vector<Statement> ran;
  double total_ms = 0;
  for (;;) {
    const auto st = walker->next();
    perfgate::Stopwatch sw;
    auto r = conn.exec_prepared(st.name, st.params);
    const auto page = walker->read(r);
    page_ms.push_back(sw.ms());
    total_ms += page_ms.back();
    ran.push_back(st);
    if (static_cast<int>(page.names.size()) > page_size) throw std::runtime_error("a page exceeded page_size");
    answers.add("", std::move(r), static_cast<int>(page.names.size()), kAnswerColumns);
    if (!page.has_next) break;
    if (page_ms.size() > static_cast<std::size_t>(subfolders) + 2) throw std::runtime_error("the walk does not end");
  }

  perfgate::Report report;
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  answers.write(log);
  if (answers.rows() != static_cast<std::size_t>(subfolders))
    report.not_equivalent("walked " + std::to_string(answers.rows()) + " sub-folders, the folder holds " +
                          std::to_string(subfolders));
  const std::size_t mid = ran.size() / 2;
  report.digest(digest.hex())
      .metric("total_ms", total_ms, "ms")
      .metric("ms_per_page_p50", perfgate::percentile(page_ms, 0.5), "ms")
      .metric("ms_per_page_p99", perfgate::percentile(page_ms, 0.99), "ms")
      .metric("pages", static_cast<double>(page_ms.size()), "count")
      .metric("rows", static_cast<double>(answers.rows()), "count")
      .series("page_ms", page_ms, "ms")
      .extra("explain", pgs::explain_page(conn, ran[mid], mid + 1, ran.size()))
      .extra("plan_cache", pgs::plan_cache(conn))
      .extra("server_version", conn.exec("SHOW server_version").str(0, 0));
  return report;
}

}  // namespace folder_keyset
