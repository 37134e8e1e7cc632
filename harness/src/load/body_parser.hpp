// The load generator's HTTP/1.1 response parser (internal to perfgate::load).
#pragma once

#include <xxhash.h>

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/field.hpp>
#include <cstdint>
#include <string>

namespace perfgate::load {

// A response parser that keeps only what the load generator needs: the status, the headers
// that say what the body is, and the body, appended to the connection's buffers (their capacity
// is reused: nothing is allocated once they have grown to the largest response). The body is
// kept whole so the response gate can name the first differing byte; hashing it once complete
// is cheaper than streaming the hash.
class BodyParser final : public boost::beast::http::basic_parser<false> {
 public:
  BodyParser(std::string* body, std::string* headers) : body_(body), headers_(headers) {
    body_->clear();
    headers_->clear();
    body_limit(std::uint64_t{1} << 30);
  }
  int status = 0;
  std::uint64_t bytes() const { return body_->size(); }
  XXH128_hash_t digest() const { return XXH3_128bits(body_->data(), body_->size()); }
  // The headers that carry meaning for the body, as received: "content-type: text/plain\n...".
  // Date, Server, Content-Length and the like describe the transfer, not the answer.
  const std::string& meaningful_headers() const { return *headers_; }

 private:
  static bool meaningful(boost::beast::http::field f) {
    using boost::beast::http::field;
    return f == field::content_type || f == field::content_encoding || f == field::content_language ||
           f == field::content_range || f == field::location || f == field::vary;
  }
  std::string* body_;
  std::string* headers_;
  void on_request_impl(boost::beast::http::verb, boost::beast::string_view, boost::beast::string_view, int,
                       boost::system::error_code&) override {}
  void on_response_impl(int code, boost::beast::string_view, int, boost::system::error_code&) override {
    status = code;
  }
  void on_field_impl(boost::beast::http::field f, boost::beast::string_view name, boost::beast::string_view value,
                     boost::system::error_code&) override {
    if (!meaningful(f)) return;
    for (char c : name) headers_->push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    headers_->append(": ").append(value.data(), value.size()).push_back('\n');
  }
  void on_header_impl(boost::system::error_code&) override {}
  void on_body_init_impl(boost::optional<std::uint64_t> const& length, boost::system::error_code&) override {
    if (length && *length <= (std::uint64_t{1} << 26)) body_->reserve(static_cast<std::size_t>(*length));
  }
  std::size_t on_body_impl(boost::beast::string_view body, boost::system::error_code&) override {
    body_->append(body.data(), body.size());
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, boost::system::error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view body,
                                 boost::system::error_code& ec) override {
    return on_body_impl(body, ec);
  }
  void on_finish_impl(boost::system::error_code&) override {}
};

}  // namespace perfgate::load
