// BEFORE (write-up [1], list_resources_paged): one folders-UNION-ALL-files query whose
// keyset cursor is applied OUTSIDE the union, on the computed columns folder_first and
// sort_str. The planner cannot push a comparison on (constant, LOWER(name), id) into an
// index range, so every page scans the whole folder, filters out the rows before the
// cursor, and top-N sorts the rest: the cost of a page grows with the folder, not the page.
// The (parent, LOWER(name), id) indexes do not change that ("before-with-indexes").
#include "listing.hpp"

namespace keyset_listing {

namespace {

const char* kEntries = R"sql(
  SELECT 0 AS folder_first, 'folder' AS type, id, name, NULL::bigint AS size, updated_at,
         LOWER(name) AS sort_str
    FROM folders
   WHERE parent_id = $1 AND NOT is_trashed
  UNION ALL
  SELECT 1 AS folder_first, 'file' AS type, id, name, size, updated_at,
         LOWER(name) AS sort_str
    FROM files
   WHERE folder_id = $1 AND NOT is_trashed
)sql";

std::string query(const std::string& where, const std::string& order_by) {
  return "SELECT type, id, name, size, updated_at, sort_str FROM (" + std::string(kEntries) + ") entries\n" + where +
         "\nORDER BY " + order_by + "\nLIMIT $2";
}

const std::string kByName = "folder_first, sort_str, id";
const std::string kByModified = "folder_first, updated_at DESC, id DESC";

class Before final : public Lister {
 public:
  explicit Before(std::string folder) : folder_(std::move(folder)) {}

  std::vector<Statement> statements() const override {
    return {
        {"name_first", query("", kByName), {}},
        {"name_next", query("WHERE (folder_first, sort_str, id) > ($3::int, $4::text, $5::uuid)", kByName), {}},
        {"mtime_first", query("", kByModified), {}},
        {"mtime_next",
         query("WHERE folder_first > $3::int\n   OR (folder_first = $3::int AND (updated_at, id) < ($4::timestamptz, "
               "$5::uuid))",
               kByModified),
         {}},
    };
  }

  Statement page(Order order, const std::optional<Cursor>& c, int limit) const override {
    const auto all = statements();
    const std::string lim = std::to_string(limit);
    const bool name = order == Order::Name;
    if (!c) {
      Statement s = all[name ? 0 : 2];
      s.params = {folder_, lim};
      return s;
    }
    Statement s = all[name ? 1 : 3];
    s.params = {folder_, lim, c->in_files ? "1" : "0", name ? c->sort_str : c->updated_at, c->id};
    return s;
  }

 private:
  std::string folder_;
};

}  // namespace

std::unique_ptr<Lister> make_before(const std::string& folder_id) { return std::make_unique<Before>(folder_id); }

}  // namespace keyset_listing
