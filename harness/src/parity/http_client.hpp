// The agreement pass's HTTP/1.1 client: one keep-alive connection to a base URL, answers kept
// whole with their status and the X-Perfgate-Statements header (the load generator keeps
// neither headers nor every body; this client is for the few hundred requests that are read).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <cstdint>
#include <memory>
#include <string>

#include "parity/agreement.hpp"

namespace perfgate::parity {

// "http://HOST:PORT[/PREFIX]": the host resolved once to an address literal (the load
// generator does no name lookup); the prefix goes before every request path.
struct BaseUrl {
  std::string text, address, prefix;
  std::uint16_t port = 80;
};
// Throws UsageError naming `what` (e.g. "URL_A") when the URL is not of that form.
BaseUrl parse_base_url(const std::string& url, const std::string& what);

class Client {
 public:
  explicit Client(BaseUrl base, double timeout_s = 10);
  ~Client();
  // GET prefix + path. A transport failure is an Answer with status 0 and the error; the
  // next get reconnects.
  Answer get(const std::string& path);

 private:
  BaseUrl base_;
  double timeout_s_;
  boost::asio::io_context ioc_;
  std::unique_ptr<boost::beast::tcp_stream> stream_;
};

}  // namespace perfgate::parity
