// One IMAP4rev1 session's state machine (RFC 3501): not authenticated -> authenticated ->
// selected -> logout, answering one command at a time. It knows nothing of sockets or of
// how a variant builds a mailbox: the backend does that.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "imap_command.hpp"
#include "mailbox_view.hpp"

namespace imap_select {

class SessionBackend {
 public:
  virtual ~SessionBackend() = default;
  virtual bool login(std::string_view user, std::string_view password) = 0;
  // The mailbox as this variant builds it for a SELECT; null: there is no such mailbox.
  virtual std::shared_ptr<const MailboxView> open(std::string_view mailbox) = 0;
  // The private XWRITER command (STEP n | RUN | STATUS): the untagged answer's text; throws
  // std::runtime_error with the NO text.
  virtual std::string writer(const std::vector<std::string>& args) = 0;
};

class ImapSession {
 public:
  explicit ImapSession(SessionBackend& backend) : backend_(backend) {}
  static std::string greeting();
  static std::string too_long();
  // The whole answer to one command: its untagged lines and the tagged completion.
  std::string handle(const RawCommand& raw);
  bool logged_out() const { return logged_out_; }

 private:
  std::string dispatch(const Command& c);
  std::string login(const Command& c);
  std::string select(const Command& c, bool read_only);
  std::string fetch(const Command& c, std::size_t first_arg, bool by_uid);
  SessionBackend& backend_;
  bool authenticated_ = false;
  bool logged_out_ = false;
  std::shared_ptr<const MailboxView> selected_;
};

}  // namespace imap_select
