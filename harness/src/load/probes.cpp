#include "load/probes.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <fstream>
#include <stdexcept>

#include "load/body_parser.hpp"

namespace perfgate::load {
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

std::vector<Probe> parse_probes(const std::vector<std::string>& lines) {
  std::vector<Probe> out;
  for (const auto& raw : lines) {
    const auto b = raw.find_first_not_of(" \t\r");
    if (b == std::string::npos || raw[b] == '#') continue;
    const std::string line = raw.substr(b, raw.find_last_not_of(" \t\r") + 1 - b);
    Probe p;
    const auto space = line.find(' ');
    if (space == std::string::npos) {
      p.path = line;
    } else {
      p.method = line.substr(0, space);
      p.path = line.substr(line.find_first_not_of(' ', space));
    }
    if (p.path.empty() || p.path.front() != '/' || p.path.find(' ') != std::string::npos ||
        http::string_to_verb(p.method) == http::verb::unknown)
      throw std::invalid_argument("probe \"" + line + "\": not \"[METHOD] /path\"");
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<std::string> read_probe_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read the probe file " + file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void ask_probes(std::uint16_t port, const std::vector<Probe>& probes, ResponseBook& book, double timeout_s) {
  std::string body, headers;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    const Probe& p = probes[i];
    boost::asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::milliseconds(static_cast<long>(timeout_s * 1000)));
    try {
      stream.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
      http::request<http::empty_body> req{http::string_to_verb(p.method), p.path, 11};
      req.set(http::field::host, "127.0.0.1");
      req.keep_alive(false);
      req.prepare_payload();
      http::write(stream, req);
      beast::flat_buffer buf;
      BodyParser parser(&body, &headers);
      if (p.method == "HEAD") parser.skip(true);
      http::read(stream, buf, parser);
      const XXH128_hash_t h = parser.digest();
      book.answer(p.key(), i, parser.status, BodyDigest{h.high64, h.low64}, body, headers);
    } catch (const boost::system::system_error& e) {
      if (e.code() == beast::error::timeout)
        throw std::runtime_error("probe " + p.key() + ": no answer within " + std::to_string(timeout_s) + " s");
      book.transport_error(p.key(), i, e.what());
    }
  }
}

}  // namespace perfgate::load
