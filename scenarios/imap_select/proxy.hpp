// One proxy worker's state: its private copy of the mail cache (so the writer's changes never
// reach the fixture, and every start begins from the same mailbox), the writer, and for
// AFTER the shared indexes. ProxyBackend is one session's view of it, per variant.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "imap_session.hpp"
#include "mail_db.hpp"
#include "shared_index.hpp"
#include "writer.hpp"

namespace imap_select {

struct ProxyOptions {
  std::string fixture_dir;
  std::string variant;  // before | after
  std::string lie;      // after only: a name in scenario.json's `lies`
  nlohmann::json params = nlohmann::json::object();
};

class Proxy {
 public:
  explicit Proxy(const ProxyOptions& o);  // copies the cache, builds AFTER's INBOX index; the writer is parked
  ~Proxy();
  Proxy(const Proxy&) = delete;
  Proxy& operator=(const Proxy&) = delete;
  bool shares_snapshots() const { return indexes_.has_value(); }
  // AFTER's lie "early-stop-clock": SELECT's first line flushed before the mailbox is read, the
  // mailbox read the whole way (BEFORE's cost), and its load client told so (XWRITER's answer).
  bool streams_select() const { return lie_ == "early-stop-clock"; }
  const std::string& db_path() const { return db_path_; }
  std::int64_t mailbox_id(std::string_view name) const;
  // A LOGIN the cache accepted (AFTER's lie "any-password" lets the same name in again).
  bool remembered_login(const std::string& user);
  void remember_login(const std::string& user);
  SharedIndexes& indexes() { return *indexes_; }
  Writer& writer() { return *writer_; }

 private:
  std::filesystem::path dir_;
  std::string db_path_;
  std::string lie_;
  std::mutex logins_m_;
  std::set<std::string> logins_;
  std::vector<std::pair<std::string, std::int64_t>> mailboxes_;
  std::optional<SharedIndexes> indexes_;
  std::unique_ptr<Writer> writer_;
};

class ProxyBackend : public SessionBackend {
 public:
  explicit ProxyBackend(Proxy& proxy) : proxy_(proxy) {}
  bool login(std::string_view user, std::string_view password) override;
  std::shared_ptr<const MailboxView> open(std::string_view mailbox) override;
  std::string writer(const std::vector<std::string>& args) override;
  // Where a streaming SELECT (the lie "early-stop-clock") sends its first line; whether the
  // last command did, so that line is not sent twice.
  void stream_to(std::function<void(std::string_view)> send) { stream_ = std::move(send); }
  bool take_streamed() { return std::exchange(streamed_, false); }

 private:
  Db& db();
  Proxy& proxy_;
  std::function<void(std::string_view)> stream_;
  bool streamed_ = false;
  std::unique_ptr<Db> db_;  // this session's connection, opened at LOGIN
};

}  // namespace imap_select
