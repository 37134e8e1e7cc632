#include "store_client.hpp"

#include <boost/beast/http.hpp>
#include <stdexcept>

namespace s3_put {
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

StoreConnection::StoreConnection(const Endpoint& store) : socket_(io_), host_(store.host) {
  beast::error_code ec;
  socket_.connect(tcp::endpoint(boost::asio::ip::make_address(store.host), store.port), ec);
  if (ec)
    throw std::runtime_error("cannot connect to the object store at " + store.host + ":" + std::to_string(store.port) +
                             ": " + ec.message());
  socket_.set_option(tcp::no_delay(true));
  // A whole chunk fits the send buffer: one write, no waits on the store between segments.
  socket_.set_option(boost::asio::socket_base::send_buffer_size(1 << 20));
}

int StoreConnection::head(const std::string& name) {
  http::request<http::empty_body> req{http::verb::head, "/chunks/" + name, 11};
  req.set(http::field::host, host_);
  http::write(socket_, req);
  http::response_parser<http::empty_body> parser;
  parser.skip(true);  // a HEAD answer has a Content-Length but no body
  http::read(socket_, buffer_, parser);
  return parser.get().result_int();
}

void StoreConnection::put(const std::string& name, const std::string& bytes) {
  // The chunk's bytes are sent from where they are, not copied into the request.
  http::request<http::span_body<const char>> req{http::verb::put, "/chunks/" + name, 11};
  req.set(http::field::host, host_);
  req.body() = {bytes.data(), bytes.size()};
  req.prepare_payload();
  http::write(socket_, req);
  http::response<http::string_body> res;
  http::read(socket_, buffer_, res);
  if (res.result() != http::status::ok)
    throw std::runtime_error("PUT /chunks/" + name + ": HTTP " + std::to_string(res.result_int()));
}

std::string StoreConnection::get(const std::string& target) {
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, host_);
  http::write(socket_, req);
  http::response_parser<http::string_body> parser;
  parser.body_limit(std::uint64_t{1} << 30);
  http::read(socket_, buffer_, parser);
  if (parser.get().result() != http::status::ok)
    throw std::runtime_error("GET " + target + ": HTTP " + std::to_string(parser.get().result_int()));
  return parser.release().body();
}

}  // namespace s3_put
