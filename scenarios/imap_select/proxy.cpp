#include "proxy.hpp"

#include <stdlib.h>
#include <strings.h>

#include <stdexcept>

#include "full_snapshot.hpp"
#include "imap_format.hpp"

namespace imap_select {

namespace fs = std::filesystem;

namespace {
fs::path make_private_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl = (fs::path(base && *base ? base : "/tmp") / "imap_select-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a directory under " + tmpl);
  return tmpl;
}
}  // namespace

Proxy::Proxy(const ProxyOptions& o)
    : dir_(make_private_dir()), db_path_((dir_ / kCacheFile).string()), lie_(o.variant == "after" ? o.lie : "") {
  try {
    const fs::path source = fs::path(o.fixture_dir) / kCacheFile;
    if (!fs::exists(source)) throw std::runtime_error(source.string() + " is missing (run `imap_select seed` first)");
    copy_database(source.string(), db_path_);
    Db db(db_path_, Db::Mode::ReadWrite);
    mailboxes_ = list_mailboxes(db);
    const std::int64_t inbox = find_mailbox(mailboxes_, "INBOX");
    if (inbox == 0) throw std::runtime_error(source.string() + " has no INBOX");
    const nlohmann::json params = o.params.is_object() ? o.params : nlohmann::json::object();
    WriterOptions w;
    w.db_path = db_path_;
    w.mailbox_id = inbox;
    w.seed = params.value("seed", std::uint64_t{4});
    w.ops_per_transaction = params.value("writer_ops_per_transaction", 8);
    w.hold_ms = params.value("writer_hold_ms", 3);
    w.pause_ms = params.value("writer_pause_ms", 1);
    if (lie_ == "skip-commit") w.commit_every = 1000;  // the cache written at stop, if ever
    if (o.variant == "after") {
      indexes_.emplace(IndexLies{lie_ == "stale-exists", lie_ == "fetch-drops-flags", lie_ == "one-index",
                                 lie_ == "apply-in-place"});
      indexes_->prepare(db, inbox);  // before the writer can move: no commit is missed
      w.on_commit = [this](const MailboxCommit& c) { indexes_->apply(c); };
    }
    writer_ = std::make_unique<Writer>(std::move(w));
  } catch (...) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
    throw;
  }
}

Proxy::~Proxy() {
  writer_.reset();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::int64_t Proxy::mailbox_id(std::string_view name) const {
  // The lie "case-folded-names": every name matched without case, as a map of folded names would.
  if (lie_ == "case-folded-names")
    for (const auto& [shown, id] : mailboxes_)
      if (shown.size() == name.size() && strncasecmp(shown.data(), name.data(), name.size()) == 0) return id;
  const std::int64_t id = find_mailbox(mailboxes_, name);
  // The lie "unknown-box-as-inbox": a name the cache does not know answered as the INBOX.
  return id == 0 && lie_ == "unknown-box-as-inbox" ? find_mailbox(mailboxes_, "INBOX") : id;
}

bool Proxy::remembered_login(const std::string& user) {
  std::lock_guard lock(logins_m_);
  return lie_ == "any-password" && logins_.count(user) > 0;
}

void Proxy::remember_login(const std::string& user) {
  std::lock_guard lock(logins_m_);
  logins_.insert(user);
}

Db& ProxyBackend::db() {
  if (!db_) db_ = std::make_unique<Db>(proxy_.db_path(), Db::Mode::ReadWrite);
  return *db_;
}

bool ProxyBackend::login(std::string_view user, std::string_view password) {
  if (proxy_.remembered_login(std::string(user))) return true;
  Statement q(db(), "SELECT 1 FROM users WHERE login = ?1 AND password = ?2");
  if (!q.bind(1, user).bind(2, password).step()) return false;
  proxy_.remember_login(std::string(user));
  return true;
}

std::shared_ptr<const MailboxView> ProxyBackend::open(std::string_view mailbox) {
  const std::int64_t id = proxy_.mailbox_id(mailbox);
  if (id == 0) return nullptr;
  if (stream_ && proxy_.streams_select()) {  // the lie "early-stop-clock"
    stream_(flags_line());
    streamed_ = true;
    return FullSnapshot::build(db(), id);
  }
  if (proxy_.shares_snapshots()) return proxy_.indexes().prepare(db(), id).current();
  return FullSnapshot::build(db(), id);
}

std::string ProxyBackend::writer(const std::vector<std::string>& args) {
  Writer& w = proxy_.writer();
  if (args.size() == 2 && args[0] == "STEP") {
    std::uint64_t n = 0;
    try {
      std::size_t used = 0;
      n = std::stoull(args[1], &used);
      if (used != args[1].size()) throw std::invalid_argument("");
    } catch (const std::exception&) {
      throw std::invalid_argument("XWRITER STEP needs a number");
    }
    if (auto why = w.step_to(n); !why.empty()) throw std::runtime_error(why);
  } else if (args.size() == 1 && args[0] == "RUN") {
    w.run();
  } else if (!(args.size() == 1 && args[0] == "STATUS")) {
    throw std::invalid_argument("XWRITER STEP n | RUN | STATUS");
  }
  const WriterStatus s = w.status();
  return "OPS " + std::to_string(s.ops) + " TRANSACTIONS " + std::to_string(s.transactions) + " HIGHESTMODSEQ " +
         std::to_string(s.highestmodseq) + (proxy_.streams_select() ? " STREAMS SELECT" : "") + " CACHE " +
         proxy_.db_path();
}

}  // namespace imap_select
