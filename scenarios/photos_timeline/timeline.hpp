// photos_timeline: the caller's photo timeline across every drive shared with them, newest
// first, 10 pages of 100. before.cpp and after.cpp say which SQL runs for a page; main.cpp
// runs, times, digests and explains them the same way.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pg_scenario/pg_scenario.hpp"

namespace photos_timeline {

using Statement = perfgate::pg_scenario::Statement;

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
// `lie`: "" (honest), "no-metadata-join" (width, height and camera come back NULL: the
// file_metadata join is skipped), "no-folder-join" (path comes back NULL: the folders join
// is skipped), "ignore-grant-expiry" (an expired grant's drive kept), "remembered-drives"
// (the drives materialised at the object's first start() only), "date-only-cursor" (the
// cursor compared on media_sort_date alone), "shared-drive-slot" (one static slot for the
// drives of every timeline) or "pages-in-start" (start() fetches the listing's first 1,000
// rows and the pages are cut from them).
std::unique_ptr<Timeline> make_after(const std::string& user_id, const std::string& now, const std::string& lie = "");

using MakeTimeline = std::function<std::unique_ptr<Timeline>(const std::string& user_id)>;

// The untimed probes (probes.cpp), asked after the timed pages on the same connection: a grant
// revoked before a second listing through `timed`, ~150 equal dates across a page boundary,
// a photo added between two pages, two callers' listings interleaved. Every page is added to
// `answers` under its probe's label.
void ask_probes(perfgate::fixtures::PgConnection& conn, Timeline& timed, const MakeTimeline& make, int drives,
                int limit, perfgate::pg_scenario::Answers& answers);

// One sample: `pages` pages newest first, timed; every column of every row digested after
// the timed pages, then the probes' pages; the middle page explained.
perfgate::Report run(const perfgate::Invocation& inv);

}  // namespace photos_timeline
