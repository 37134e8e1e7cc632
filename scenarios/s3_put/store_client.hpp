// A keep-alive HTTP/1.1 connection to the object store (Boost.Beast, synchronous): one per
// uploader thread, so the only per-request cost beyond the store's latency is the request.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <string>

#include "perfgate/endpoint.hpp"

namespace s3_put {

using Endpoint = perfgate::Endpoint;

class StoreConnection {
 public:
  explicit StoreConnection(const Endpoint& store);
  // The HTTP status of HEAD /chunks/<name> (200 present, 404 absent).
  int head(const std::string& name);
  // PUT /chunks/<name>; throws unless the store answers 200.
  void put(const std::string& name, const std::string& bytes);
  // GET of an admin path (/_admin/stats, /_admin/list); throws unless 200.
  std::string get(const std::string& target);

 private:
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  std::string host_;
};

}  // namespace s3_put
