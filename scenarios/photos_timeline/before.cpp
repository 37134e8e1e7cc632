// BEFORE (write-up [2], list_media_files): one query. The accessible drives are a
// drive_id IN (grants) semi-join, and the folders / file_metadata joins and the global
// ORDER BY media_sort_date DESC sit above it, so idx_files_media_timeline_by_drive cannot
// stop the scan early: every page feeds the caller's whole media library through the joins
// into a top-N heapsort, to keep 100 rows.
#include "timeline.hpp"

namespace photos_timeline {

namespace {

std::string query(bool with_cursor) {
  std::string sql = R"sql(
SELECT f.id, f.name, f.mime_type, f.size, f.media_sort_date, fo.path,
       m.width, m.height, m.camera_make, m.camera_model
  FROM files f
  JOIN folders fo ON fo.id = f.folder_id
  LEFT JOIN file_metadata m ON m.file_id = f.id
 WHERE f.drive_id IN (
         SELECT g.resource_id
           FROM role_grants g
           JOIN drives d ON d.id = g.resource_id
          WHERE g.subject_type = 'user' AND g.subject_id = $1 AND g.resource_type = 'drive'
            AND (g.expires_at IS NULL OR g.expires_at > $2::timestamptz)
            AND COALESCE((d.policies ->> 'include_in_photo_index')::boolean, true))
   AND NOT f.is_trashed
   AND (f.mime_type LIKE 'image/%' OR f.mime_type LIKE 'video/%'))sql";
  if (with_cursor) sql += "\n   AND (f.media_sort_date, f.id) < ($4::timestamptz, $5::uuid)";
  sql += "\n ORDER BY f.media_sort_date DESC, f.id DESC\n LIMIT $3";
  return sql;
}

class Before final : public Timeline {
 public:
  Before(std::string user, std::string now) : user_(std::move(user)), now_(std::move(now)) {}

  std::vector<Statement> statements() const override {
    return {{"timeline_first", query(false), {}}, {"timeline_next", query(true), {}}};
  }
  void start(perfgate::fixtures::PgConnection&) override {}
  Statement page(const std::optional<Cursor>& c, int limit) const override {
    const auto all = statements();
    Statement s = all[c ? 1 : 0];
    s.params = {user_, now_, std::to_string(limit)};
    if (c) {
      s.params.push_back(c->media_sort_date);
      s.params.push_back(c->id);
    }
    return s;
  }

 private:
  std::string user_, now_;
};

}  // namespace

std::unique_ptr<Timeline> make_before(const std::string& user_id, const std::string& now) {
  return std::make_unique<Before>(user_id, now);
}

}  // namespace photos_timeline
