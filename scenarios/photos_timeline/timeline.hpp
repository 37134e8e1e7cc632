// photos_timeline: the caller's photo timeline across every drive shared with them, newest
// first, 10 pages of 100. before.cpp and after.cpp say which SQL runs for a page; main.cpp
// runs, times, digests and explains them the same way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "postgres/pg_client.hpp"

namespace photos_timeline {

struct Statement {
  std::string name;  // prepared statement name
  std::string sql;
  std::vector<perfgate::fixtures::PgParam> params;
};

// The keyset cursor: the last row of the previous page.
struct Cursor {
  std::string media_sort_date;  // text, UTC
  std::string id;
};

// Every page statement returns the same columns, in this order:
//   id, name, mime_type, size, media_sort_date, path, width, height, camera_make, camera_model
class Timeline {
 public:
  virtual ~Timeline() = default;
  // Every statement this variant prepares (params empty).
  virtual std::vector<Statement> statements() const = 0;
  // Work done once per listing, before the first page (AFTER: the accessible drive ids).
  virtual void start(perfgate::fixtures::PgConnection& conn) = 0;
  // The statement and parameters of one page; no cursor for the first page.
  virtual Statement page(const std::optional<Cursor>& cursor, int limit) const = 0;
};

// BEFORE: one query joining files to folders and metadata with drive_id IN (grants),
// sorted globally.
std::unique_ptr<Timeline> make_before(const std::string& user_id, const std::string& now);
// AFTER: grants materialised once, a LATERAL top-k per drive on the timeline index, the
// joins on the k emitted rows only.
std::unique_ptr<Timeline> make_after(const std::string& user_id, const std::string& now);

}  // namespace photos_timeline
