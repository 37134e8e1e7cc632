#include "listing.hpp"

#include <algorithm>

#include "schema.hpp"

namespace media_parity {

std::string item_types(const Request& request, const std::vector<std::string>& fallback) {
  std::vector<std::string> names = request.list("IncludeItemTypes");
  if (names.empty()) names = fallback;
  std::vector<std::string> stored;
  for (const auto& n : names) {
    const auto s = stored_type(n);
    if (s.empty()) throw HttpError(400, "IncludeItemTypes: unknown item type '" + n + "'");
    stored.emplace_back(s);
  }
  return json_list(stored);
}

Json envelope(Json items, long long total, long long start) {
  Json out;
  out["Items"] = std::move(items);
  out["TotalRecordCount"] = total;
  out["StartIndex"] = start;
  return out;
}

PageSpan PageSpan::of(const Request& request, long long fallback) {
  return {request.integer("StartIndex", 0), std::min(request.integer("Limit", fallback), 1000LL)};
}

}  // namespace media_parity

namespace media_parity {

std::string narrowed_values(Where& w, bool after, long long value_type, const std::string& libraries,
                            const std::string& types) {
  const std::string items = "b.TopParentId IN (SELECT value FROM json_each(" + w.bind(libraries) +
                            ")) AND b.Type IN (SELECT value FROM json_each(" + w.bind(types) + "))";
  const std::string type = "v.Type = " + w.bind(value_type);
  if (after)
    return type +
           " AND EXISTS (SELECT 1 FROM ItemValuesMap m JOIN BaseItems b ON b.Id = m.ItemId "
           "WHERE m.ItemValueId = v.ItemValueId AND " +
           items + ")";
  return type +
         " AND v.ItemValueId IN (SELECT m.ItemValueId FROM ItemValuesMap m WHERE m.ItemId IN "
         "(SELECT b.Id FROM BaseItems b WHERE " +
         items + "))";
}

}  // namespace media_parity
