#include "parity/http_client.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <regex>

#include "common/errors.hpp"

namespace perfgate::parity {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

BaseUrl parse_base_url(const std::string& url, const std::string& what) {
  static const std::regex form(R"(http://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:([0-9]{1,5}))?(/.*)?)");
  std::smatch m;
  if (!std::regex_match(url, m, form))
    throw UsageError(what + ": '" + url + "' is not a base URL of the form http://HOST[:PORT][/PREFIX]");
  BaseUrl b;
  b.text = url;
  std::string host = m[1].str();
  if (host.front() == '[') host = host.substr(1, host.size() - 2);
  if (m[3].matched) {
    const long port = std::stol(m[3].str());
    if (port < 1 || port > 65535) throw UsageError(what + ": port " + m[3].str() + " is out of range");
    b.port = static_cast<std::uint16_t>(port);
  }
  b.prefix = m[4].matched ? m[4].str() : "";
  while (!b.prefix.empty() && b.prefix.back() == '/') b.prefix.pop_back();
  boost::asio::io_context ioc;
  tcp::resolver resolver(ioc);
  boost::system::error_code ec;
  auto found = resolver.resolve(host, std::to_string(b.port), ec);
  if (ec || found.empty()) throw UsageError(what + ": cannot resolve host '" + host + "': " + ec.message());
  b.address = found.begin()->endpoint().address().to_string();
  return b;
}

Client::Client(BaseUrl base, double timeout_s) : base_(std::move(base)), timeout_s_(timeout_s) {}
Client::~Client() = default;

Answer Client::get(const std::string& path) {
  Answer a;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool reused = stream_ != nullptr;
    try {
      if (!stream_) {
        stream_ = std::make_unique<beast::tcp_stream>(ioc_);
        stream_->expires_after(std::chrono::milliseconds(static_cast<long>(timeout_s_ * 1000)));
        stream_->connect(tcp::endpoint(boost::asio::ip::make_address(base_.address), base_.port));
      }
      stream_->expires_after(std::chrono::milliseconds(static_cast<long>(timeout_s_ * 1000)));
      http::request<http::empty_body> req{http::verb::get, base_.prefix + path, 11};
      req.set(http::field::host, base_.address);
      req.keep_alive(true);
      http::write(*stream_, req);
      beast::flat_buffer buf;
      http::response_parser<http::string_body> parser;
      parser.body_limit(std::uint64_t{1} << 30);
      http::read(*stream_, buf, parser);
      auto res = parser.release();
      a.status = res.result_int();
      a.body = std::move(res.body());
      if (auto it = res.find("X-Perfgate-Statements"); it != res.end()) {
        try {
          a.statements = std::stoll(std::string(it->value()));
        } catch (const std::exception&) {
          a.error = "X-Perfgate-Statements is not a number: " + std::string(it->value());
        }
      }
      if (!res.keep_alive()) stream_.reset();
      return a;
    } catch (const boost::system::system_error& e) {
      stream_.reset();
      a.error = e.code().message();
      // A keep-alive connection the server closed meanwhile: one retry on a fresh one.
      if (!reused) break;
    }
  }
  a.status = 0;
  return a;
}

}  // namespace perfgate::parity
