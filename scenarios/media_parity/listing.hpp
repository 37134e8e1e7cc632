// What every listing route shares: a WHERE clause built with numbered binds, the item types a
// request names, and Jellyfin's result envelope.
#pragma once

#include <string>
#include <vector>

#include "db.hpp"
#include "request.hpp"

namespace media_parity {

struct Where {
  std::string sql = "1";
  std::vector<Value> binds;
  // Adds `v` as the next numbered parameter and returns its placeholder ("?3").
  std::string bind(Value v) {
    binds.push_back(std::move(v));
    return "?" + std::to_string(binds.size());
  }
  Where& and_(const std::string& condition) {
    sql += " AND " + condition;
    return *this;
  }
};

// IncludeItemTypes as stored type names (a JSON list for json_each); `fallback` when absent.
// 400 naming an unknown type.
std::string item_types(const Request& request, const std::vector<std::string>& fallback);

// {"Items": [...], "TotalRecordCount": n, "StartIndex": k}
Json envelope(Json items, long long total, long long start);

// Limit (default `fallback`, at most 1000) and StartIndex of a page.
struct PageSpan {
  long long start, limit;
  static PageSpan of(const Request& request, long long fallback);
};

}  // namespace media_parity

namespace media_parity {

// The condition on ItemValues v: values of `value_type` carried by at least one item of the
// user's libraries (`libraries`, a JSON list) of the given types (`types`, a JSON list).
// BEFORE narrows with ItemValuesMap.ItemId IN (SELECT b.Id ...), which fixes the order of work:
// every item the subquery selects is materialised first, then the mapping probed per id.
// AFTER writes it as a join SQLite can flatten and drive from either side.
std::string narrowed_values(Where& w, bool after, long long value_type, const std::string& libraries,
                            const std::string& types);

}  // namespace media_parity
