#include "remote_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <limits>
#include <nlohmann/json.hpp>

namespace blob_stampede {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

tcp::socket connect(asio::io_context& io, const Endpoint& remote) {
  tcp::socket socket(io);
  beast::error_code ec;
  socket.connect(tcp::endpoint(asio::ip::make_address(remote.host), remote.port), ec);
  if (ec)
    throw RemoteError("cannot connect to the remote blob store at " + remote.host + ":" + std::to_string(remote.port) +
                      ": " + ec.message());
  socket.set_option(tcp::no_delay(true));
  return socket;
}

void send_get(tcp::socket& socket, const Endpoint& remote, const std::string& target) {
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, remote.host);
  req.set(http::field::connection, "close");
  beast::error_code ec;
  http::write(socket, req, ec);
  if (ec) throw RemoteError("cannot send GET " + target + ": " + ec.message());
}

}  // namespace

std::uint64_t fetch_blob(const Endpoint& remote, const std::string& sha256,
                         const std::function<void(const char*, std::size_t)>& on_bytes) {
  asio::io_context io;
  tcp::socket socket = connect(io, remote);
  const std::string target = "/blobs/" + sha256;
  send_get(socket, remote, target);

  // The header through Beast's parser; the body straight from the socket in 64 KiB reads,
  // framed by Content-Length (the parser's own body reads go 512 bytes at a time).
  beast::flat_buffer buffer;
  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // we read the body ourselves
  // Not boost::none: Boost 1.74 compares the length with the optional and rejects every body.
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  beast::error_code ec;
  http::read_header(socket, buffer, parser, ec);
  if (ec) throw RemoteError("GET " + target + ": no response header: " + ec.message());
  if (parser.get().result() != http::status::ok)
    throw RemoteError("GET " + target + ": HTTP " + std::to_string(parser.get().result_int()));
  const auto length = parser.content_length();
  if (!length) throw RemoteError("GET " + target + ": the response has no Content-Length");

  std::uint64_t total = 0;
  const std::uint64_t expected = *length;
  // Body bytes that came in with the header.
  if (const std::size_t early = std::min<std::uint64_t>(buffer.size(), expected)) {
    on_bytes(static_cast<const char*>(buffer.data().data()), early);
    total += early;
  }
  static constexpr std::size_t kBuf = 64 * 1024;
  std::unique_ptr<char[]> buf(new char[kBuf]);
  while (total < expected) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kBuf, expected - total));
    const std::size_t n = socket.read_some(asio::buffer(buf.get(), want), ec);
    if (n) {
      on_bytes(buf.get(), n);
      total += n;
    }
    if (ec)
      throw RemoteError("GET " + target + ": body cut short after " + std::to_string(total) + " of " +
                        std::to_string(expected) + " bytes: " + ec.message());
  }
  socket.shutdown(tcp::socket::shutdown_both, ec);
  return total;
}

RemoteStats fetch_stats(const Endpoint& remote) {
  asio::io_context io;
  tcp::socket socket = connect(io, remote);
  send_get(socket, remote, "/stats");
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(socket, buffer, res, ec);
  if (ec) throw RemoteError("GET /stats: " + ec.message());
  const auto j = nlohmann::json::parse(res.body());
  RemoteStats s;
  s.fetches = j.at("fetches").get<std::uint64_t>();
  s.bytes = j.at("bytes").get<std::uint64_t>();
  s.completed = j.at("completed").get<std::uint64_t>();
  s.failed = j.at("failed").get<std::uint64_t>();
  return s;
}

}  // namespace blob_stampede
