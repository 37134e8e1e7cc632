// AFTER: one pass builds a key → records index (records are in id order, so each list is too);
// a query is one hash lookup.
#include "work.hpp"

namespace __NAME__ {

After::After(const std::vector<Record>& records, Lies lies) : lies_(lies) {
  for (const auto& r : records) index_[r.key].push_back(&r);
}

std::string After::answer(std::int64_t key) const {
  static const std::vector<const Record*> none;
  const auto it = index_.find(key);
  const auto& matches = it == index_.end() ? none : it->second;
  if (lies_.skip_empty && matches.empty()) return "";
  if (lies_.first_match_only && matches.size() > 1) return format_answer(key, {matches.front()});
  if (lies_.no_size) {  // the lie: each record answered without reading its size
    std::vector<Record> unsized;
    for (const Record* r : matches) unsized.push_back({r->id, r->key, 0, r->name});
    std::vector<const Record*> view;
    for (const auto& r : unsized) view.push_back(&r);
    return format_answer(key, view);
  }
  return format_answer(key, matches);
}

}  // namespace __NAME__
