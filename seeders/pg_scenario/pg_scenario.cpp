#include "pg_scenario/pg_scenario.hpp"

#include <libpq-fe.h>

#include <cstdlib>
#include <set>

#include "filecloud/filecloud.hpp"
#include "perfgate/canonical_row.hpp"
#include "perfgate/scenario_main.hpp"

namespace perfgate::pg_scenario {

namespace {
// pg_type OIDs (catalog/pg_type_d.h is a server header; these values are fixed).
constexpr Oid kBool = 16, kInt8 = 20, kInt2 = 21, kInt4 = 23, kOid = 26, kFloat4 = 700, kFloat8 = 701, kNumeric = 1700;
}  // namespace

std::string canonical_row(const fixtures::PgResult& r, int row, int cols) {
  const int n = cols < 0 ? r.cols() : std::min(cols, r.cols());
  CanonicalRow out(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) {
    if (r.is_null(row, c)) {
      out.null();
      continue;
    }
    const std::string v = r.str(row, c);
    switch (PQftype(r.get(), c)) {
      case kBool:
        out.boolean(v == "t");
        break;
      case kInt2:
      case kInt4:
      case kInt8:
      case kOid:
        out.integer(std::stoll(v));
        break;
      case kFloat4:
      case kFloat8:
        out.real(std::strtod(v.c_str(), nullptr));
        break;
      case kNumeric:
        out.decimal(v);
        break;
      default:
        out.text(v);
    }
  }
  return out.str();
}

void prepare_session(fixtures::PgConnection& conn, const std::vector<Statement>& statements) {
  conn.exec("SET TimeZone = 'UTC'");
  for (const auto& s : statements) conn.prepare(s.name, s.sql, 0);
}

void Answers::write(OutputLog& log) const {
  for (const auto& p : pages_)
    for (int i = 0; i < p.answer_rows(); ++i)
      log.line((p.label.empty() ? "" : p.label + "\t") + canonical_row(p.result, i, p.cols));
}

std::size_t Answers::rows() const {
  std::size_t n = 0;
  for (const auto& p : pages_) n += static_cast<std::size_t>(p.answer_rows());
  return n;
}

json plan_cache(fixtures::PgConnection& conn) {
  json counts = json::object();
  for (const auto& [name, c] : fixtures::prepared_plan_counts(conn))
    counts[name] = {{"generic", c.generic}, {"custom", c.custom}};
  return counts;
}

json explain_page(fixtures::PgConnection& conn, const Statement& st, std::size_t page, std::size_t of_pages) {
  const auto plan = fixtures::explain_prepared(conn, st.name, st.sql, st.params);
  json j = {{"page", page},      {"of_pages", of_pages},  {"statement", st.name},       {"sql", st.sql},
            {"plan", plan.plan}, {"source", plan.source}, {"plan_type", plan.plan_type}};
  if (!plan.note.empty()) j["note"] = plan.note;
  return j;
}

namespace {
// Every relation outside the system schemas but perfgate_catalog itself; indexes with their
// definition (columns, expressions, predicate, uniqueness). Sizes and statistics are left out:
// VACUUM and ANALYZE change them, not what the fixture holds.
constexpr const char* kCatalog = R"sql(
SELECT entry FROM (
SELECT n.nspname || '.' || c.relname || ' ' || c.relkind::text
       || CASE WHEN i.indexrelid IS NULL THEN '' ELSE ' ' || pg_get_indexdef(c.oid) END AS entry
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_index i ON i.indexrelid = c.oid
 WHERE n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
   AND NOT (n.nspname = 'public' AND c.relname = 'perfgate_catalog')
) relations ORDER BY entry COLLATE "C")sql";

std::vector<std::string> entries(const fixtures::PgResult& r) {
  std::vector<std::string> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(r.str(i, 0));
  return out;
}

// `from` entries missing in `in`, as "label entry; ...".
std::string missing(const char* label, const std::vector<std::string>& from, const std::vector<std::string>& in) {
  const std::set<std::string> have(in.begin(), in.end());
  std::string out;
  for (const auto& e : from)
    if (!have.count(e)) out += std::string(out.empty() ? "" : "; ") + label + " " + e;
  return out;
}
}  // namespace

std::vector<std::string> catalog(fixtures::PgConnection& conn) { return entries(conn.exec(kCatalog)); }

void record_catalog(const std::string& dsn) {
  fixtures::PgConnection conn(dsn);
  conn.exec("CREATE TABLE public.perfgate_catalog (entry text NOT NULL)");
  conn.exec(std::string("INSERT INTO public.perfgate_catalog ") + kCatalog);
}

void check_fixture(fixtures::PgConnection& conn, const std::string& shape, const nlohmann::json& params) {
  seeders::filecloud::check_fixture(conn, shape, params);
  if (conn.exec("SELECT to_regclass('public.perfgate_catalog') IS NULL").str(0, 0) == "t")
    throw std::runtime_error("the fixture holds no seeded catalog (public.perfgate_catalog): reseed it");
  const auto seeded = entries(conn.exec("SELECT entry FROM public.perfgate_catalog ORDER BY entry COLLATE \"C\""));
  const auto now = catalog(conn);
  if (now == seeded) return;
  std::string what = missing("added", now, seeded);
  const std::string dropped = missing("dropped", seeded, now);
  what += (what.empty() || dropped.empty() ? "" : "; ") + dropped;
  throw NotEquivalent("the fixture's catalog is not the seeded one (built outside the measured pages?): " + what);
}

OtherCaller::~OtherCaller() {
  try {
    undo();
  } catch (...) {
  }
}

void OtherCaller::transaction(const std::vector<Write>& writes) {
  conn_.exec("BEGIN");
  try {
    for (const auto& w : writes) conn_.exec_params(w.sql, w.params);
  } catch (...) {
    conn_.exec("ROLLBACK");
    throw;
  }
  conn_.exec("COMMIT");
}

void OtherCaller::commit(const std::vector<Write>& writes, std::vector<Write> undo) {
  transaction(writes);
  undo_ = std::move(undo);
}

void OtherCaller::undo() {
  const auto writes = std::move(undo_);
  undo_.clear();
  if (!writes.empty()) transaction(writes);
}

}  // namespace perfgate::pg_scenario
