// AFTER (write-up [2]): the accessible drive ids are materialised once per listing (the same
// grant predicate as BEFORE), then each page runs a CROSS JOIN LATERAL (... ORDER BY
// media_sort_date DESC LIMIT k) per drive: one bounded scan of
// idx_files_media_timeline_by_drive (drive_id, media_sort_date DESC) each. The drives x k
// candidates are merged into the page's k rows, and only those k go through the folders and
// file_metadata joins. (Every file has its folder: the foreign key makes the inner join
// unable to drop a row, so joining after the LIMIT returns what BEFORE returns.)
//
// The lies (timeline.hpp) are this code minus one piece of work; the last four are caught by
// the untimed probes of probes.cpp.
#include <stdexcept>

#include "timeline.hpp"

namespace photos_timeline {

namespace {

// The lie "ignore-grant-expiry" materialises the drives of every grant the caller ever had:
// an expired grant's drive stays in the list.
std::string accessible_drives(const std::string& lie) {
  const std::string expiry = lie == "ignore-grant-expiry" ? "$2::timestamptz IS NOT NULL"
                                                          : "(g.expires_at IS NULL OR g.expires_at > $2::timestamptz)";
  return R"sql(
SELECT COALESCE(array_agg(d.id ORDER BY d.id), '{}')::text
  FROM role_grants g
  JOIN drives d ON d.id = g.resource_id
 WHERE g.subject_type = 'user' AND g.subject_id = $1 AND g.resource_type = 'drive'
   AND )sql" +
         expiry + R"sql(
   AND COALESCE((d.policies ->> 'include_in_photo_index')::boolean, true))sql";
}

// The lies "no-folder-join" and "no-metadata-join" skip a join and return its columns as NULL:
// the same shape, less work. "date-only-cursor" compares the keyset cursor on the date alone
// (the id tiebreak dropped): the rest of a run of equal dates past a page's end is skipped.
std::string query(bool with_cursor, const std::string& lie) {
  const bool folders = lie != "no-folder-join", metadata = lie != "no-metadata-join";
  std::string sql = std::string("\nSELECT f.id, f.name, f.mime_type, f.size, f.media_sort_date, ") +
                    (folders ? "fo.path" : "NULL::text AS path") + ",\n       " +
                    (metadata ? "m.width, m.height, m.camera_make, m.camera_model"
                              : "NULL::int AS width, NULL::int AS height, NULL::text AS camera_make, "
                                "NULL::text AS camera_model") +
                    R"sql(
  FROM (SELECT t.*
          FROM unnest($1::uuid[]) AS acc(drive_id)
          CROSS JOIN LATERAL (
                SELECT t.id, t.name, t.mime_type, t.size, t.media_sort_date, t.folder_id
                  FROM files t
                 WHERE t.drive_id = acc.drive_id
                   AND NOT t.is_trashed
                   AND (t.mime_type LIKE 'image/%' OR t.mime_type LIKE 'video/%'))sql";
  if (with_cursor)
    sql += lie == "date-only-cursor"
               ? "\n                   AND $4::uuid IS NOT NULL AND t.media_sort_date < $3::timestamptz"
               : "\n                   AND (t.media_sort_date, t.id) < ($3::timestamptz, $4::uuid)";
  sql += R"sql(
                 ORDER BY t.media_sort_date DESC, t.id DESC
                 LIMIT $2) t
         ORDER BY t.media_sort_date DESC, t.id DESC
         LIMIT $2) f)sql";
  if (folders) sql += "\n  JOIN folders fo ON fo.id = f.folder_id";
  if (metadata) sql += "\n  LEFT JOIN file_metadata m ON m.file_id = f.id";
  sql += "\n ORDER BY f.media_sort_date DESC, f.id DESC";
  return sql;
}

// The lie "pages-in-start": start() fetches the first kPrefetch rows of the listing (the
// honest query, into the session setting photos.timeline as JSON) and every page is cut from
// them: the pages' work moves into start(), which run.cpp times into page 1 only.
constexpr int kPrefetch = 1000;

std::string prefetch() {
  return "\nSELECT set_config('photos.timeline',\n"
         "       COALESCE(json_agg(p ORDER BY p.media_sort_date DESC, p.id DESC)::text, '[]'), false)\n"
         "  FROM (" +
         query(false, "") + ") p";
}

std::string prefetched_page(bool with_cursor) {
  std::string sql = R"sql(
SELECT r.id, r.name, r.mime_type, r.size, r.media_sort_date, r.path, r.width, r.height, r.camera_make, r.camera_model
  FROM json_to_recordset(current_setting('photos.timeline')::json)
       AS r(id uuid, name text, mime_type text, size bigint, media_sort_date timestamptz, path text, width int,
            height int, camera_make text, camera_model text)
 WHERE $1::uuid[] IS NOT NULL)sql";
  if (with_cursor) sql += "\n   AND (r.media_sort_date, r.id) < ($3::timestamptz, $4::uuid)";
  return sql + "\n ORDER BY r.media_sort_date DESC, r.id DESC\n LIMIT $2";
}

// The lie "shared-drive-slot": one slot for the accessible drives of every timeline.
std::string& shared_slot() {
  static std::string slot;
  return slot;
}

class After final : public Timeline {
 public:
  After(std::string user, std::string now, std::string lie)
      : user_(std::move(user)), now_(std::move(now)), lie_(std::move(lie)) {}

  std::vector<Statement> statements() const override {
    if (lie_ == "pages-in-start")
      return {{"accessible_drives", accessible_drives(lie_), {}},
              {"timeline_first", prefetched_page(false), {}},
              {"timeline_next", prefetched_page(true), {}},
              {"timeline_prefetch", prefetch(), {}}};
    return {{"accessible_drives", accessible_drives(lie_), {}},
            {"timeline_first", query(false, lie_), {}},
            {"timeline_next", query(true, lie_), {}}};
  }
  void start(perfgate::fixtures::PgConnection& conn) override {
    // The lie "remembered-drives" materialises the drives at the object's first listing only.
    if (lie_ == "remembered-drives" && !drives_.empty()) return;
    drives() = conn.exec_prepared("accessible_drives", {user_, now_}).str(0, 0);
    if (lie_ == "pages-in-start") conn.exec_prepared("timeline_prefetch", {drives(), std::to_string(kPrefetch)});
  }
  Statement page(const std::optional<Cursor>& c, int limit) const override {
    if (drives().empty()) throw std::logic_error("start() must run before page()");
    const auto all = statements();
    Statement s = all[c ? 2 : 1];
    s.params = {drives(), std::to_string(limit)};
    if (c) {
      s.params.push_back(c->media_sort_date);
      s.params.push_back(c->id);
    }
    return s;
  }

 private:
  std::string& drives() { return lie_ == "shared-drive-slot" ? shared_slot() : drives_; }
  const std::string& drives() const { return lie_ == "shared-drive-slot" ? shared_slot() : drives_; }

  std::string user_, now_, lie_;
  std::string drives_;  // '{uuid,uuid,...}'
};

}  // namespace

std::unique_ptr<Timeline> make_after(const std::string& user_id, const std::string& now, const std::string& lie) {
  return std::make_unique<After>(user_id, now, lie);
}

}  // namespace photos_timeline
