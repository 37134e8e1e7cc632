// Who asks and which libraries they may see. Deciding the libraries reads every descendant of
// each enabled view (the write-up's `user_libraries`: three index scans to return one id per
// view), so how often it runs is a variant difference: BEFORE derives them again at every use,
// AFTER once per request.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db.hpp"
#include "request.hpp"

namespace media_parity {

class Access {
 public:
  // Resolves ?UserId= (a user name or a 32-hex id): one statement; 400 when absent, 404 when unknown.
  Access(Connection& db, const Request& request, const ServeOptions& options);
  // The same for a user named in the path (/Users/{UserId}/...): `who` as ?UserId= would be.
  Access(Connection& db, const std::string& who, const ServeOptions& options);
  const std::string& user() const { return user_; }
  // The user's library ids as a JSON array (for json_each). 403 when the user is disabled.
  std::string libraries();
  // The libraries as ids, in the same order.
  std::vector<std::string> library_ids();
  // BEFORE's per-entry permission reads on by-name pages (IsDisabled, EnableAllFolders).
  void check_entry_permissions();
  // The lie "precompute-libraries": every user's libraries, derived before the server listens.
  static std::shared_ptr<const std::map<std::string, std::vector<std::string>>> precompute(Connection& db,
                                                                                           const ServeOptions& options);

 private:
  std::vector<std::string> derive();
  Connection& db_;
  bool once_;
  bool all_folders_;                                                    // the lie "all-folders"
  bool ignore_disabled_;                                                // the lie "ignore-disabled"
  const std::map<std::string, std::vector<std::string>>* precomputed_;  // the lie "precompute-libraries"
  std::string user_;
  std::optional<std::vector<std::string>> cached_;
};

}  // namespace media_parity
