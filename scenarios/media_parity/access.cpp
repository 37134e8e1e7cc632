#include "access.hpp"

#include <algorithm>

#include "schema.hpp"

namespace media_parity {

Access::Access(Connection& db, const Request& request, const ServeOptions& options)
    : Access(db, request.get("UserId"), options) {}

Access::Access(Connection& db, const std::string& who, const ServeOptions& options)
    : db_(db),
      once_(options.after),
      all_folders_(options.lie_all_folders),
      ignore_disabled_(options.lie_ignore_disabled),
      precomputed_(options.precomputed.get()) {
  if (who.empty() && !options.lie_default_user)
    throw HttpError(400, "query parameter UserId is required (a user name or id)");
  if (!who.empty())
    db_.query("SELECT Id FROM Users WHERE Username = ?1 OR Id = ?1", {who}, [&](const Row& r) { user_ = r.text(0); });
  // The lie "default-user": no or an unknown user answered as the first user, the administrator.
  if (user_.empty() && options.lie_default_user)
    db_.query("SELECT Id FROM Users ORDER BY rowid LIMIT 1", {}, [&](const Row& r) { user_ = r.text(0); });
  if (user_.empty()) throw HttpError(404, "no user '" + who + "'");
}

std::shared_ptr<const std::map<std::string, std::vector<std::string>>> Access::precompute(Connection& db,
                                                                                          const ServeOptions& options) {
  auto out = std::make_shared<std::map<std::string, std::vector<std::string>>>();
  std::vector<std::string> users;
  db.query("SELECT Id FROM Users ORDER BY Id", {}, [&](const Row& r) { users.push_back(r.text(0)); });
  for (const auto& id : users) {
    try {
      Access access(db, Request("/Users?UserId=" + id), options);
      (*out)[id] = access.derive();
    } catch (const HttpError&) {
      // a disabled user: derived again (403) at each request
    }
  }
  return out;
}

std::string Access::libraries() { return json_list(library_ids()); }

std::vector<std::string> Access::library_ids() {
  if (precomputed_)
    if (const auto it = precomputed_->find(user_); it != precomputed_->end()) return it->second;
  if (!once_) return derive();
  if (!cached_) cached_ = derive();
  return *cached_;
}

void Access::check_entry_permissions() {
  const auto disabled = db_.scalar("SELECT Value FROM Permissions WHERE UserId = ?1 AND Kind = ?2",
                                   {user_, static_cast<long long>(kPermissionIsDisabled)});
  if (disabled.value_or(0)) throw HttpError(403, "user is disabled");
  db_.scalar("SELECT Value FROM Permissions WHERE UserId = ?1 AND Kind = ?2",
             {user_, static_cast<long long>(kPermissionEnableAllFolders)});
}

std::vector<std::string> Access::derive() {
  const std::string perm = "SELECT Value FROM Permissions WHERE UserId = ?1 AND Kind = ?2";
  // The lie "ignore-disabled": IsDisabled never read, the user's libraries derived as if enabled.
  if (!ignore_disabled_ && db_.scalar(perm, {user_, static_cast<long long>(kPermissionIsDisabled)}).value_or(0))
    throw HttpError(403, "user is disabled");
  std::vector<std::string> views;
  // The lie "all-folders": the restriction never read, every library treated as enabled.
  if (all_folders_ || db_.scalar(perm, {user_, static_cast<long long>(kPermissionEnableAllFolders)}).value_or(0)) {
    db_.query("SELECT Id FROM BaseItems WHERE Type = ?1 ORDER BY Id", {std::string(stored_type("CollectionFolder"))},
              [&](const Row& r) { views.push_back(r.text(0)); });
  } else {
    std::string folders;
    db_.query("SELECT Value FROM Preferences WHERE UserId = ?1 AND Kind = ?2",
              {user_, static_cast<long long>(kPreferenceEnabledFolders)}, [&](const Row& r) { folders = r.text(0); });
    for (std::size_t start = 0; start < folders.size();) {
      auto end = std::min(folders.find(',', start), folders.size());
      if (end > start) views.push_back(folders.substr(start, end - start));
      start = end + 1;
    }
  }
  // Which top parents the view's descendants have: every descendant is read to learn one id.
  std::vector<std::string> libraries;
  for (const auto& view : views)
    db_.query(
        "SELECT DISTINCT b.TopParentId FROM AncestorIds a JOIN BaseItems b ON b.Id = a.ItemId "
        "WHERE a.ParentItemId = ?1 AND b.TopParentId IS NOT NULL",
        {view}, [&](const Row& r) { libraries.push_back(r.text(0)); });
  std::sort(libraries.begin(), libraries.end());
  libraries.erase(std::unique(libraries.begin(), libraries.end()), libraries.end());
  return libraries;
}

}  // namespace media_parity
