// BEFORE (write-up [3]): LIMIT/OFFSET paging with a COUNT(*) OVER () window per page. Every
// page reads, sorts and window-aggregates all N sub-folders, then skips `offset` of them;
// the total is only used to decide has_next. A full walk costs pages x N rows.
#include "walk.hpp"

namespace folder_keyset {

namespace {

class Before final : public Walker {
 public:
  Before(std::string parent, int page_size) : parent_(std::move(parent)), page_size_(page_size) {}

  std::vector<Statement> statements() const override {
    return {{"page_offset",
             R"sql(
SELECT id, name, COUNT(*) OVER () AS total
  FROM folders
 WHERE parent_id = $1 AND NOT is_trashed
 ORDER BY name
 LIMIT $2 OFFSET $3)sql",
             {}}};
  }

  Statement next() const override {
    Statement s = statements()[0];
    s.params = {parent_, std::to_string(page_size_), std::to_string(offset_)};
    return s;
  }

  Page read(const perfgate::fixtures::PgResult& r) override {
    Page p;
    for (int i = 0; i < r.rows(); ++i) p.names.push_back(r.str(i, 1));
    const long long total = r.rows() > 0 ? r.integer(0, 2) : 0;
    offset_ += r.rows();
    p.has_next = r.rows() > 0 && offset_ < total;
    return p;
  }

 private:
  std::string parent_;
  int page_size_;
  long long offset_ = 0;
};

}  // namespace

std::unique_ptr<Walker> make_before(const std::string& parent_id, int page_size) {
  return std::make_unique<Before>(parent_id, page_size);
}

}  // namespace folder_keyset
