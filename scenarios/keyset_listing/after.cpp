// AFTER (write-up [1]): the cursor is pushed into each branch as a row-value comparison on
// base columns, (LOWER(name), id) > ($str, $id), which the (parent, LOWER(name), id)
// partial indexes turn into an index range. What is constant for a page is decided here,
// not by the planner: a cursor in the file group drops the folder branch outright, a cursor
// in the folder group keeps the file branch without a cursor. Each branch sorts and limits
// on its own; the outer query merges at most 2 x limit rows.
//
// The modification-time order has no dedicated index (as in the write-up): its branches
// still sort every remaining row, so that order gains little.
#include "listing.hpp"

namespace keyset_listing {

namespace {

struct Shape {
  std::string key;       // sort expression of a branch
  std::string key_out;   // the same, as an output column name
  std::string dir;       // ASC | DESC
  std::string cmp;       // > for ASC, < for DESC
  std::string key_type;  // the cursor parameter's type
};

const Shape kName{"LOWER(name)", "sort_str", "", ">", "text"};
const Shape kModified{"updated_at", "updated_at", " DESC", "<", "timestamptz"};

// `tiebreak` false is the lie "no-tiebreak": rows of one sort key come in whatever order the sort
// leaves them (the folders all share one modification time).
std::string branch(const char* type, const char* table, const char* parent_col, const char* size, const Shape& s,
                   bool with_cursor, bool tiebreak) {
  std::string sql = "SELECT '" + std::string(type) + "'::text AS type, id, name, " + size +
                    " AS size, updated_at, LOWER(name) AS sort_str\n    FROM " + table + "\n   WHERE " + parent_col +
                    " = $1 AND NOT is_trashed";
  if (with_cursor) sql += "\n     AND (" + s.key + ", id) " + s.cmp + " ($3::" + s.key_type + ", $4::uuid)";
  sql += "\n   ORDER BY " + s.key + s.dir + (tiebreak ? ", id" + s.dir : "") + "\n   LIMIT $2";
  return sql;
}

std::string folders(const Shape& s, bool cursor, const Lies& lies) {
  return branch("folder", "folders", "parent_id", "NULL::bigint", s, cursor, !lies.no_tiebreak);
}
// The lie "null-size" reads no size: the column is there, its values are not.
std::string files(const Shape& s, bool cursor, const Lies& lies) {
  return branch("file", "files", "folder_id", lies.null_size ? "NULL::bigint" : "size", s, cursor, !lies.no_tiebreak);
}

// Both groups: the folder branch (with or without the cursor) and the whole file branch,
// each pre-sorted and pre-limited, merged.
std::string merged(const Shape& s, bool folder_cursor, const Lies& lies) {
  return "SELECT type, id, name, size, updated_at, sort_str FROM (\n  (" + folders(s, folder_cursor, lies) +
         ")\n  UNION ALL\n  (" + files(s, false, lies) + ")\n) page\nORDER BY type = 'file', " + s.key_out + s.dir +
         (lies.no_tiebreak ? "" : ", id" + s.dir) + "\nLIMIT $2";
}

class After final : public Lister {
 public:
  After(std::string folder, Lies lies) : folder_(std::move(folder)), lies_(lies) {}

  std::vector<Statement> statements() const override {
    return {
        {"name_first", merged(kName, false, lies_), {}},          {"name_in_folders", merged(kName, true, lies_), {}},
        {"name_in_files", files(kName, true, lies_), {}},         {"mtime_first", merged(kModified, false, lies_), {}},
        {"mtime_in_folders", merged(kModified, true, lies_), {}}, {"mtime_in_files", files(kModified, true, lies_), {}},
    };
  }

  Statement page(Order order, const std::optional<Cursor>& c, int limit) const override {
    const auto all = statements();
    const std::size_t base = order == Order::Name ? 0 : 3;
    const std::string lim = std::to_string(limit);
    if (!c) {
      Statement s = all[base];
      s.params = {folder_, lim};
      return s;
    }
    Statement s = all[base + (c->in_files ? 2 : 1)];
    s.params = {folder_, lim, order == Order::Name ? c->sort_str : c->updated_at, c->id};
    return s;
  }

 private:
  std::string folder_;
  Lies lies_;
};

}  // namespace

std::unique_ptr<Lister> make_after(const std::string& folder_id, Lies lies) {
  return std::make_unique<After>(folder_id, lies);
}

}  // namespace keyset_listing
