// What the PostgreSQL scenarios (keyset_listing, folder_keyset, photos_timeline) share around
// their SQL: the statements they prepare, the canonical serialisation of every returned row
// for the digest, the session set-up, and the plan evidence (EXPLAIN of one timed page and
// the plan-cache counts) their results carry.
#pragma once

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "perfgate/sample.hpp"
#include "postgres/pg_client.hpp"

namespace perfgate::pg_scenario {

// One prepared statement and the parameters of one execution.
struct Statement {
  std::string name;
  std::string sql;
  std::vector<fixtures::PgParam> params;
};

// Row `row` of `r`, every column, through perfgate::CanonicalRow: integers (int2/4/8, oid)
// as integers, float4/8 as reals, numeric as an exact decimal, booleans as booleans, NULL as
// NULL, anything else (text, uuid, timestamptz printed in the session's UTC) as text. Values
// are typed by what they are, not by the column's declared type, so int4 and int8 agree.
// `cols` < 0: every column; otherwise the first `cols` (the answer's columns, when a query
// returns helper columns after them).
std::string canonical_row(const fixtures::PgResult& r, int row, int cols = -1);

// The session every variant runs in: timestamps in UTC (so they print the same everywhere)
// and the variant's statements prepared.
void prepare_session(fixtures::PgConnection& conn, const std::vector<Statement>& statements);

// Results pages kept as returned during the timed window and serialised after it, so the
// digest's cost stays out of the timings.
class Answers {
 public:
  // `rows`/`cols` < 0: all of them; otherwise the first `rows` rows / `cols` columns are the
  // answer (a query may fetch one row more to learn whether a next page exists).
  void add(std::string label, fixtures::PgResult page, int rows = -1, int cols = -1) {
    pages_.push_back({std::move(label), std::move(page), rows, cols});
  }
  // Every row of every page, in order, as "<label>\t<canonical row>" (no label: the row alone), into `log` (and its
  // digest).
  void write(OutputLog& log) const;
  std::size_t rows() const;

 private:
  struct Page {
    std::string label;
    fixtures::PgResult result;
    int rows, cols;
    int answer_rows() const { return rows < 0 ? result.rows() : std::min(rows, result.rows()); }
  };
  std::vector<Page> pages_;
};

// The results' plan evidence: which plans the timed pages ran (the plan cache turns generic
// after five executions) and one representative page, `page` of `of_pages` (1-based),
// executed once more through its prepared statement and explained.
json plan_cache(fixtures::PgConnection& conn);
json explain_page(fixtures::PgConnection& conn, const Statement& st, std::size_t page, std::size_t of_pages);

// --- the fixture's catalog (work.deferred) ---------------------------------------------------
// One entry per relation outside the system schemas: "schema.name kind" and, for an index, its
// definition (pg_class and pg_index), sorted. perfgate_catalog holds the seeded entries.
std::vector<std::string> catalog(fixtures::PgConnection& conn);
// At seed time, once the seeder is done: records catalog() in public.perfgate_catalog.
void record_catalog(const std::string& dsn);
// Each sample, untimed before its pages: filecloud's check_fixture (shape and parameters), then
// the catalog compared with the seeded one. A helper built in the fixture since (an index, a
// materialised view, a table left by an earlier sample) throws NotEquivalent naming it.
void check_fixture(fixtures::PgConnection& conn, const std::string& shape, const nlohmann::json& params);

// --- another caller (callers.race) -----------------------------------------------------------
// Writes another caller commits on a connection of its own, so that a walk in progress sees
// them between two of its pages, and the writes that undo them: run by undo(), or by the
// destructor if the walk threw first, so the fixture stays as seeded.
struct Write {
  std::string sql;
  std::vector<fixtures::PgParam> params;
};
class OtherCaller {
 public:
  explicit OtherCaller(const std::string& dsn) : conn_(dsn) {}
  ~OtherCaller();
  OtherCaller(const OtherCaller&) = delete;
  OtherCaller& operator=(const OtherCaller&) = delete;
  // Runs `writes` in one transaction and commits; `undo` is kept for undo().
  void commit(const std::vector<Write>& writes, std::vector<Write> undo);
  void undo();

 private:
  void transaction(const std::vector<Write>& writes);
  fixtures::PgConnection conn_;
  std::vector<Write> undo_;
};

}  // namespace perfgate::pg_scenario
