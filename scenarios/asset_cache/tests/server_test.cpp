// The real `asset_cache serve` process, spoken to over HTTP: assets inflated and passed
// through as gzip, 404s, malformed requests answered 400 without harm, the stats endpoint,
// identical bodies under every cache, and no server left behind after SIGTERM or after its
// parent is killed.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "gzip.hpp"
#include "load/http_load.hpp"
#include "perfgate/server_process.hpp"
#include "seed.hpp"
#include "store.hpp"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

namespace {

// A small catalogue (20 packages x 2 versions), seeded once per test process, removed at exit.
const std::string& fixture() {
  static const std::string dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("asset_cache_fixture_" + std::to_string(getpid()));
    asset_cache::seed_fixture(asset_cache::SeedParams::from_json({{"packages", 20}, {"versions", 2}}), d.string());
    return d.string();
  }();
  return dir;
}

class RemoveFixture : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    const auto d = std::filesystem::temp_directory_path() / ("asset_cache_fixture_" + std::to_string(getpid()));
    std::filesystem::remove_all(d, ignored);
  }
};
[[maybe_unused]] const auto* const kRemoveFixture = ::testing::AddGlobalTestEnvironment(new RemoveFixture);

std::vector<std::string> urls() {
  std::vector<std::string> out;
  std::ifstream in(fixture() + "/urls.txt");
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string stored_gzip(const std::string& path) {
  asset_cache::AssetStore store(fixture());
  const auto a = path.find('/', 8), b = path.find('/', a + 1);
  return store.fetch(path.substr(8, a - 8), path.substr(a + 1, b - a - 1), path.substr(b + 1)).value();
}

// Reads one line from fd, waiting at most `timeout`.
std::string read_line(int fd, std::chrono::milliseconds timeout) {
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  char c;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    if (read(fd, &c, 1) != 1) break;
    if (c == '\n') return line;
    line += c;
  }
  return line;
}

// Waits for pid (our child) to exit; returns its wait status, or -1 after the timeout.
int wait_exit(pid_t pid, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    std::this_thread::sleep_for(10ms);
  }
  return -1;
}

// `asset_cache serve` as a child process (the SDK's ServerProcess, as a scenario program starts
// its servers): stopped with SIGTERM and reaped when it goes.
class Server {
 public:
  explicit Server(const std::vector<std::string>& extra = {})
      : process_(ASSET_CACHE_BIN, arguments(extra), "asset_cache serve", "build the target scenario_asset_cache") {}
  // SIGTERM (SIGKILL after 10 s); returns the wait status.
  int stop() { return process_.stop(10s); }
  pid_t pid() const { return process_.pid(); }
  std::uint16_t port() const { return process_.endpoint().port; }

 private:
  static std::vector<std::string> arguments(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"serve", "--variant", "test", "--fixture", fixture(), "--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  perfgate::ServerProcess process_;
};

// A keep-alive HTTP/1.1 client (Beast, blocking).
class Client {
 public:
  explicit Client(std::uint16_t port) : socket_(io_) {
    socket_.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  http::response<http::string_body> get(const std::string& target, const std::string& accept_encoding = "") {
    http::request<http::empty_body> req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!accept_encoding.empty()) req.set(http::field::accept_encoding, accept_encoding);
    http::write(socket_, req);
    return read();
  }
  void send_raw(const std::string& bytes) { asio::write(socket_, asio::buffer(bytes)); }
  http::response<http::string_body> read() {
    http::response<http::string_body> res;
    http::read(socket_, buffer_, res);
    return res;
  }
  // True when the server closed the connection (EOF on the next read).
  bool closed_by_server() {
    beast::error_code ec;
    char c;
    socket_.read_some(asio::buffer(&c, 1), ec);
    return ec == asio::error::eof || ec == asio::error::connection_reset;
  }

 private:
  asio::io_context io_;
  tcp::socket socket_;
  beast::flat_buffer buffer_;
};

nlohmann::json stats(std::uint16_t port) { return nlohmann::json::parse(Client(port).get("/_stats").body()); }

}  // namespace

TEST(Server, InflatesAssetsForClientsThatDoNotAcceptGzip) {
  Server server;
  Client client(server.port());
  const auto all = urls();
  for (const auto& path : std::vector<std::string>(all.begin(), all.begin() + 5)) {
    const auto res = client.get(path);
    ASSERT_EQ(res.result_int(), 200) << path;
    EXPECT_EQ(res.count(http::field::content_encoding), 0u);
    EXPECT_EQ(res.body(), asset_cache::gunzip(stored_gzip(path)));
    EXPECT_NE(std::string(res[http::field::content_type]).find("javascript"), std::string::npos);
    EXPECT_TRUE(res.keep_alive());
  }
}

TEST(Server, PassesGzipThroughWhenTheClientAcceptsIt) {
  Server server;
  Client client(server.port());
  const std::string path = urls().at(3);
  const auto gz = client.get(path, "gzip, deflate");
  ASSERT_EQ(gz.result_int(), 200);
  EXPECT_EQ(std::string(gz[http::field::content_encoding]), "gzip");
  EXPECT_EQ(gz.body(), stored_gzip(path)) << "the stored bytes, untouched";
  EXPECT_EQ(asset_cache::gunzip(gz.body()), client.get(path).body()) << "same content either way";
  EXPECT_EQ(client.get(path, "gzip;q=0").count(http::field::content_encoding), 0u);
}

TEST(Server, AnswersUnknownPathsWith404) {
  Server server;
  Client client(server.port());
  EXPECT_EQ(client.get("/assets/no-such-package/1.0.0/index.js").result_int(), 404);
  EXPECT_EQ(client.get("/assets/only/two").result_int(), 404);
  EXPECT_EQ(client.get("/assets/a/b/c/d").result_int(), 404);
  EXPECT_EQ(client.get("/").result_int(), 404);
  EXPECT_EQ(client.get(urls().at(0)).result_int(), 200) << "the connection survives 404s";
  const auto s = stats(server.port());
  EXPECT_EQ(s.at("not_found"), 4);
  EXPECT_EQ(s.at("requests"), 5);
}

TEST(Server, AnswersMalformedRequestsWith400AndKeepsServing) {
  Server server;
  const std::vector<std::string> malformed = {
      "GET /assets/x HTTP/9.9\r\nHost: a\r\n\r\n",                 // bad version
      "GET /assets/x HTTP/1.1\r\nNo colon here\r\n\r\n",           // bad header field
      "\x01\x02\x03 garbage\r\n\r\n",                              // bad method
      "GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: zz\r\n\r\n",  // bad Content-Length
  };
  for (const auto& bytes : malformed) {
    Client client(server.port());
    client.send_raw(bytes);
    const auto res = client.read();
    EXPECT_EQ(res.result_int(), 400) << bytes;
    EXPECT_FALSE(res.keep_alive());
    EXPECT_TRUE(client.closed_by_server());
  }
  Client fresh(server.port());
  EXPECT_EQ(fresh.get(urls().at(1)).result_int(), 200) << "the server still serves";
  EXPECT_EQ(stats(server.port()).at("bad_requests"), 4);
  EXPECT_EQ(server.stop(), 0) << "and it exits cleanly";
}

TEST(Server, RejectsOtherMethods) {
  Server server;
  Client client(server.port());
  client.send_raw("POST " + urls().at(0) + " HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi");
  EXPECT_EQ(client.read().result_int(), 405);
  EXPECT_EQ(client.get(urls().at(0)).result_int(), 200);
}

class ServerCaches : public ::testing::TestWithParam<std::string> {};

// A, A, B, C, A with capacity 2: miss, hit, miss, miss (evicts A), miss.
TEST_P(ServerCaches, CountsHitsAndMisses) {
  Server server({"--cache", GetParam(), "--capacity", "2"});
  Client client(server.port());
  const auto u = urls();
  for (const auto& p : {u[0], u[0], u[1], u[2], u[0]}) ASSERT_EQ(client.get(p).result_int(), 200);
  const auto s = stats(server.port());
  const bool cached = GetParam() != "none";
  EXPECT_EQ(s.at("hits"), cached ? 1 : 0);
  EXPECT_EQ(s.at("misses"), cached ? 4 : 5);
  EXPECT_EQ(s.at("requests"), 5);
  EXPECT_EQ(s.at("cache_entries"), cached ? 2 : 0);
}

// The equivalence gate in small: every path's body digest is the same under every cache.
TEST_P(ServerCaches, EveryBodyMatchesTheUncachedServer) {
  const auto set = perfgate::load::RequestSet::from_url_file(fixture() + "/urls.txt").cycle();
  perfgate::load::LoadOptions o;
  o.connections = 4;
  o.max_requests = set.paths.size() * 3;
  std::map<std::string, std::string> reference;
  {
    Server plain({"--cache", "none"});
    o.port = plain.port();
    reference = perfgate::load::run_load(o, set).body_digest;
  }
  Server server({"--cache", GetParam(), "--capacity", "8"});
  o.port = server.port();
  const auto r = perfgate::load::run_load(o, set);
  EXPECT_EQ(r.status.at(200), o.max_requests);
  EXPECT_TRUE(r.inconsistent_paths.empty());
  EXPECT_EQ(r.body_digest, reference);
  EXPECT_EQ(reference.size(), 40u);
}

INSTANTIATE_TEST_SUITE_P(Caches, ServerCaches, ::testing::Values("none", "lru-scan", "lru"));

TEST(Server, ExitsZeroOnSigtermAndLeavesNothing) {
  Server server({"--cache", "lru", "--capacity", "16"});
  const pid_t pid = server.pid();
  {
    Client busy(server.port());  // an open keep-alive connection does not keep it alive
    EXPECT_EQ(busy.get(urls().at(0)).result_int(), 200);
    const int status = server.stop();
    EXPECT_TRUE(WIFEXITED(status)) << "still running 10 s after SIGTERM, or killed";
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  EXPECT_EQ(kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

// The harness is killed (SIGKILL, no cleanup): the server must go too. The spawner asks for
// that in the child, between fork and exec (PR_SET_PDEATHSIG; the harness's recipe), or the
// server asks for itself (--die-with-parent).
class DiesWithItsParent : public ::testing::TestWithParam<bool> {};

TEST_P(DiesWithItsParent, WhenTheParentIsKilled) {
  const bool spawner_sets_it = GetParam();
  // Orphans are reparented to us, so we can reap (and see) the server after its parent dies.
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  const std::string dir = fixture();
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t parent = fork();
  if (parent == 0) {
    // The stand-in harness: starts the server, reports its pid, waits to be killed.
    const pid_t me = getpid();
    const pid_t child = fork();
    if (child == 0) {
      if (spawner_sets_it) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != me) _exit(1);  // the parent died before prctl
      }
      dup2(out[1], STDOUT_FILENO);
      execl(ASSET_CACHE_BIN, ASSET_CACHE_BIN, "serve", "--variant", "t", "--fixture", dir.c_str(), "--listen",
            "127.0.0.1:0", spawner_sets_it ? "--cache" : "--die-with-parent", spawner_sets_it ? "none" : nullptr,
            static_cast<char*>(nullptr));
      _exit(127);
    }
    const std::string msg = std::to_string(child) + "\n";
    if (write(out[1], msg.data(), msg.size()) < 0) _exit(1);
    for (;;) pause();
  }
  close(out[1]);
  // Two lines arrive in either order: the server's pid and its listen line.
  pid_t server = -1;
  bool listening = false;
  for (int i = 0; i < 2; ++i) {
    const std::string line = read_line(out[0], 10s);
    if (line.rfind("{", 0) == 0)
      listening = true;
    else if (!line.empty())
      server = std::stoi(line);
  }
  close(out[0]);
  ASSERT_TRUE(listening);
  ASSERT_GT(server, 0);
  kill(parent, SIGKILL);
  waitpid(parent, nullptr, 0);
  const int status = wait_exit(server, 10s);
  if (status == -1) kill(server, SIGKILL), waitpid(server, nullptr, 0);
  ASSERT_NE(status, -1) << "the server outlived its parent";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "it got SIGTERM and shut down cleanly";
  prctl(PR_SET_CHILD_SUBREAPER, 0);
}

INSTANTIATE_TEST_SUITE_P(Server, DiesWithItsParent, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "SpawnerSetsPdeathsig" : "DieWithParentFlag"; });

TEST(Program, RunIsAUsageError) {
  const std::string cmd = std::string(ASSET_CACHE_BIN) + " run --variant before --fixture /tmp 2>/dev/null";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

TEST(Program, ServeWithoutAFixtureFailsNamingTheFix) {
  const std::string cmd = std::string(ASSET_CACHE_BIN) + " serve --variant v --fixture /nonexistent 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[256];
  while (fgets(buf, sizeof buf, p)) out += buf;
  const int status = pclose(p);
  EXPECT_NE(WEXITSTATUS(status), 0);
  EXPECT_NE(out.find("asset_cache seed"), std::string::npos) << out;
}

TEST(Program, UnknownCacheIsRejected) {
  const std::string cmd =
      std::string(ASSET_CACHE_BIN) + " serve --variant v --fixture " + fixture() + " --cache arc 2>/dev/null";
  EXPECT_NE(WEXITSTATUS(std::system(cmd.c_str())), 0);
}

// The declared lies: each must change what a client sees (else `perfgate lies` could not
// catch it), and only on the requests it claims to skip work on.
TEST(Lies, EmptyHitAnswersARepeatedRequestWithAnEmptyBody) {
  Server server({"--cache", "lru", "--capacity", "16", "--lie", "empty-hit"});
  Client client(server.port());
  const std::string path = urls().at(0);
  EXPECT_EQ(client.get(path).body(), asset_cache::gunzip(stored_gzip(path))) << "a miss is answered honestly";
  const auto hit = client.get(path);
  EXPECT_EQ(hit.result_int(), 200);
  EXPECT_TRUE(hit.body().empty());
}

TEST(Lies, StaleHitAnswersAHitWithThePreviousBody) {
  Server server({"--cache", "lru", "--capacity", "16", "--lie", "stale-hit"});
  Client client(server.port());
  const std::string a = urls().at(0), b = urls().at(1);
  client.get(a);
  client.get(b);
  EXPECT_EQ(client.get(a).body(), asset_cache::gunzip(stored_gzip(b))) << "a's hit got b's body";
}

TEST(Lies, ErrorOnePercentFailsEveryHundredthRequest) {
  Server server({"--cache", "lru", "--capacity", "16", "--lie", "error-1pct"});
  Client client(server.port());
  int failed = 0;
  for (int i = 0; i < 300; ++i) failed += client.get(urls().at(static_cast<std::size_t>(i) % 10)).result_int() == 500;
  EXPECT_EQ(failed, 3);
}

TEST(Program, UndeclaredLieIsAUsageError) {
  const std::string cmd =
      std::string(ASSET_CACHE_BIN) + " serve --variant v --fixture " + fixture() + " --lie skip-everything 2>/dev/null";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}
