#include "pg_scenario/pg_scenario.hpp"

#include <libpq-fe.h>

#include <cstdlib>

#include "perfgate/canonical_row.hpp"

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

}  // namespace perfgate::pg_scenario
