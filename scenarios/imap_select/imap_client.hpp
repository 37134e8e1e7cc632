// A small blocking IMAP client over Boost.Asio for the load phases and the tests: one
// connection, tagged commands, the answer's lines kept as they came (CRLF removed).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/streambuf.hpp>
#include <functional>
#include <string>
#include <vector>

namespace imap_select {

struct ImapAnswer {
  std::vector<std::string> untagged;  // "* ..." lines
  std::string tagged;                 // "<tag> OK ..." (or NO/BAD)
  bool ok() const;
  std::string status() const;  // OK, NO or BAD
};

class ImapClient {
 public:
  explicit ImapClient(const std::string& host_port);  // connects and reads the greeting
  // Sends "<tag> <command>" and reads up to its tagged completion.
  ImapAnswer command(const std::string& command);
  // The same, calling first_line() as soon as the answer's first line has been read.
  ImapAnswer command(const std::string& command, const std::function<void()>& first_line);
  // LOGIN with quoted strings; throws when refused.
  void login(const std::string& user, const std::string& password);
  const std::string& greeting() const { return greeting_; }

 private:
  std::string read_line();
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::streambuf buf_;
  std::string greeting_;
  unsigned next_tag_ = 1;
};

}  // namespace imap_select
