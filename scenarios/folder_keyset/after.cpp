// AFTER (write-up [3], list_folders_batch): keyset paging, name > $last, served by the
// existing unique-name index idx_folders_unique_name (parent_id, name) WHERE NOT is_trashed,
// so a page is one index range of page_size rows. has_next comes from the page length: the
// query asks for one row more than a page, so the walk needs no total and no extra query.
#include <algorithm>
#include <optional>

#include "walk.hpp"

namespace folder_keyset {

namespace {

class After final : public Walker {
 public:
  After(std::string parent, int page_size, std::string lie)
      : parent_(std::move(parent)), page_size_(page_size), lie_(std::move(lie)) {}

  std::vector<Statement> statements() const override {
    // The lie "no-id" returns the names only: the id column is there, its values are not.
    const std::string cols = lie_ == "no-id" ? "NULL::uuid AS id, name" : "id, name";
    return {{"page_first",
             "\nSELECT " + cols + R"sql(
  FROM folders
 WHERE parent_id = $1 AND NOT is_trashed
 ORDER BY name
 LIMIT $2)sql",
             {}},
            {"page_after",
             "\nSELECT " + cols + R"sql(
  FROM folders
 WHERE parent_id = $1 AND NOT is_trashed AND name > $3
 ORDER BY name
 LIMIT $2)sql",
             {}}};
  }

  Statement next() const override {
    const auto all = statements();
    const std::string limit = std::to_string(lie_ == "stop-early" ? page_size_ : page_size_ + 1);
    if (!last_) {
      Statement s = all[0];
      s.params = {parent_, limit};
      return s;
    }
    Statement s = all[1];
    s.params = {parent_, limit, *last_};
    return s;
  }

  Page read(const perfgate::fixtures::PgResult& r) override {
    Page p;
    const int n = std::min(r.rows(), page_size_);
    for (int i = 0; i < n; ++i) p.names.push_back(r.str(i, 1));
    p.has_next = r.rows() > page_size_;
    if (!p.names.empty()) last_ = p.names.back();
    return p;
  }

 private:
  std::string parent_;
  int page_size_;
  std::string lie_;
  std::optional<std::string> last_;
};

}  // namespace

std::unique_ptr<Walker> make_after(const std::string& parent_id, int page_size, const std::string& lie) {
  return std::make_unique<After>(parent_id, page_size, lie);
}

}  // namespace folder_keyset
