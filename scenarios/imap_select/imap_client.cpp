#include "imap_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>
#include <istream>
#include <stdexcept>

#include "perfgate/endpoint.hpp"

namespace imap_select {

namespace asio = boost::asio;
using asio::ip::tcp;

bool ImapAnswer::ok() const { return status() == "OK"; }

std::string ImapAnswer::status() const {
  const auto sp = tagged.find(' ');
  return sp == std::string::npos ? "" : tagged.substr(sp + 1, tagged.find(' ', sp + 1) - sp - 1);
}

ImapClient::ImapClient(const std::string& host_port) : socket_(io_) {
  const perfgate::Endpoint at = perfgate::parse_endpoint(host_port);
  tcp::resolver resolver(io_);
  asio::connect(socket_, resolver.resolve(at.host, std::to_string(at.port)));
  socket_.set_option(tcp::no_delay(true));
  greeting_ = read_line();
  if (greeting_.rfind("* OK", 0) != 0) throw std::runtime_error(host_port + " greeted with '" + greeting_ + "'");
}

std::string ImapClient::read_line() {
  asio::read_until(socket_, buf_, "\r\n");
  std::istream in(&buf_);
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

ImapAnswer ImapClient::command(const std::string& command) { return this->command(command, {}); }

ImapAnswer ImapClient::command(const std::string& command, const std::function<void()>& first_line) {
  const std::string tag = "a" + std::to_string(next_tag_++);
  const std::string wire = tag + " " + command + "\r\n";
  asio::write(socket_, asio::buffer(wire));
  ImapAnswer a;
  for (bool first = true;; first = false) {
    std::string line = read_line();
    if (first && first_line) first_line();
    if (line.compare(0, tag.size() + 1, tag + " ") == 0) {
      a.tagged = std::move(line);
      return a;
    }
    a.untagged.push_back(std::move(line));
  }
}

void ImapClient::login(const std::string& user, const std::string& password) {
  const ImapAnswer a = command("LOGIN \"" + user + "\" \"" + password + "\"");
  if (!a.ok()) throw std::runtime_error("LOGIN refused: " + a.tagged);
}

}  // namespace imap_select
