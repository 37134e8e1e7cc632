// The real `imap_select serve` process over sockets: a client that disconnects mid-command,
// a 1 MiB garbage line, a reset mid-line, and shutdown leaving nothing behind (no private
// cache, no worker process), with one worker and with three.
#include <signal.h>

#include <utility>
// <utility> first: Boost.Asio 1.74's awaitable.hpp uses std::exchange without it
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <fstream>
#include <thread>

#include "imap_client.hpp"
#include "mail_db.hpp"
#include "perfgate/server_process.hpp"
#include "test_fixture.hpp"

namespace imap_select {
namespace {

namespace bp = boost::process;
namespace asio = boost::asio;
namespace fs = std::filesystem;

// A private TMPDIR for the server, removed after it stops.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "imap_select-srv-XXXXXX").string();
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::vector<std::string> serve_args(const std::string& variant, int workers, const std::string& lie) {
  std::vector<std::string> args = {"serve",
                                   "--variant",
                                   variant,
                                   "--fixture",
                                   testing::fixture_dir(),
                                   "--params",
                                   "{\"workers\": " + std::to_string(workers) + "}",
                                   "--listen",
                                   "127.0.0.1:0"};
  if (!lie.empty()) args.insert(args.end(), {"--lie", lie});
  return args;
}

// `imap_select serve` (the SDK's ServerProcess, as a scenario program starts its servers).
class Server {
 public:
  explicit Server(const std::string& variant, int workers = 1, const std::string& lie = "")
      : process_(IMAP_SELECT_BIN, serve_args(variant, workers, lie), "imap_select serve",
                 "build the target scenario_imap_select", {{"TMPDIR", tmp_.path.string()}}),
        announce(process_.announce()),
        listen(process_.endpoint().to_string()) {}
  int stop() { return process_.stop(std::chrono::seconds(10)); }
  pid_t pid() const { return process_.pid(); }
  bool tmp_empty() const { return fs::is_empty(tmp_.path); }

 private:
  TempDir tmp_;
  perfgate::ServerProcess process_;

 public:
  const nlohmann::json announce;
  const std::string listen;
};

struct RawSocket {
  asio::io_context io;
  asio::ip::tcp::socket s{io};
  asio::streambuf buf;
  explicit RawSocket(const std::string& listen) {
    const perfgate::Endpoint at = perfgate::parse_endpoint(listen);
    s.connect({asio::ip::make_address(at.host), at.port});
    line();  // greeting
  }
  void send(const std::string& bytes) { asio::write(s, asio::buffer(bytes)); }
  std::string line() {
    asio::read_until(s, buf, "\r\n");
    std::istream in(&buf);
    std::string l;
    std::getline(in, l);
    return l;
  }
};

std::vector<pid_t> children_of(pid_t pid) {
  std::vector<pid_t> out;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    std::ifstream in(task.path() / "children");
    for (pid_t c; in >> c;) out.push_back(c);
  }
  return out;
}

bool selects(const std::string& target) {
  ImapClient c(target);
  c.login(kUser, kPassword);
  return c.command("SELECT INBOX").ok();
}

TEST(Server, SurvivesDisconnectsResetsAndGarbage) {
  Server server("after");
  {
    RawSocket mid(server.listen);
    mid.send("a1 LOGIN {10}\r\n");
    EXPECT_EQ(mid.line(), "+ Ready for literal data\r");
    mid.send("abc");  // and gone, mid-literal
  }
  {
    RawSocket reset(server.listen);
    reset.send("a1 LOGIN alice@exa");
    reset.s.set_option(asio::socket_base::linger(true, 0));  // RST, not FIN
  }
  RawSocket garbage(server.listen);
  std::string junk(1 << 20, '\0');
  for (std::size_t i = 0; i < junk.size(); ++i)
    junk[i] = static_cast<char>((i * 131 + 7) % 251 == 10 ? 'x' : (i * 131 + 7) % 251);
  garbage.send(junk + "\r\na2 NOOP\r\n");
  EXPECT_EQ(garbage.line(), "* BAD Command line too long\r");
  EXPECT_EQ(garbage.line(), "a2 OK NOOP completed\r");
  EXPECT_TRUE(selects(server.listen));
  EXPECT_EQ(server.stop(), 0);
  EXPECT_TRUE(server.tmp_empty());  // the private copy of the cache is gone
}

TEST(Server, ThreeWorkersAnswerAliveAndAllStop) {
  Server server("before", 3);
  const auto targets = server.announce.at("targets").get<std::vector<std::string>>();
  ASSERT_EQ(targets.size(), 3u);
  EXPECT_EQ(targets[0], server.listen);
  std::vector<std::string> answers;
  for (const auto& t : targets) {
    ImapClient c(t);
    c.login(kUser, kPassword);
    answers.push_back(c.command("SELECT INBOX").untagged.at(2));
  }
  EXPECT_EQ(answers[0], answers[1]);
  EXPECT_EQ(answers[0], answers[2]);
  const auto workers = children_of(server.pid());
  ASSERT_EQ(workers.size(), 2u);
  EXPECT_EQ(server.stop(), 0);
  for (pid_t w : workers) EXPECT_FALSE(fs::exists("/proc/" + std::to_string(w))) << "worker " << w << " left behind";
  EXPECT_TRUE(server.tmp_empty());
}

// The lie "early-stop-clock" answers every line as BEFORE does (only the phase wall against
// the load client's clock shows it): its XWRITER answer says it streams SELECT, for its client.
TEST(Server, EarlyStopClockAnswersAsBeforeAndSaysItStreams) {
  auto transcript = [](const std::string& target) {
    ImapClient c(target);
    c.login(kUser, kPassword);
    std::vector<std::string> lines = {c.command("XWRITER STEP 0").untagged.at(0)};
    for (const char* command : {"SELECT INBOX", "FETCH 1:* (UID FLAGS)", "EXAMINE INBOX", "SELECT Sent",
                                "SELECT NoSuchBox", "SELECT INBOX"}) {
      const ImapAnswer a = c.command(command);
      lines.insert(lines.end(), a.untagged.begin(), a.untagged.end());
      lines.push_back(a.tagged);
    }
    return lines;
  };
  Server honest("before"), lying("after", 1, "early-stop-clock");
  auto said = transcript(honest.listen), lied = transcript(lying.listen);
  EXPECT_EQ(said[0].find("STREAMS SELECT"), std::string::npos) << said[0];
  EXPECT_NE(lied[0].find(" STREAMS SELECT "), std::string::npos) << lied[0];
  said.erase(said.begin());  // the XWRITER lines name each server's private cache
  lied.erase(lied.begin());
  EXPECT_EQ(said, lied);
  EXPECT_EQ(lying.stop(), 0);
}

TEST(Server, UnknownFlagsAndMissingFixtureAreUsageErrors) {
  bp::ipstream err;
  EXPECT_EQ(bp::system(IMAP_SELECT_BIN, "serve", "--variant", "after", "--fixture", "/nonexistent", "--bogus", "1",
                       bp::std_err > err),
            2);
  EXPECT_EQ(bp::system(IMAP_SELECT_BIN, "serve", "--variant", "sideways", bp::std_err > bp::null), 2);
}

}  // namespace
}  // namespace imap_select
