// perfgate/endpoint.hpp: the one parser of a listen address (HOST:PORT, [V6]:PORT), and what
// a server announces and ServerProcess reads back.
#include "perfgate/endpoint.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <stdexcept>
#include <string>

#include "perfgate/server_process.hpp"

namespace {

std::string refusal(const std::string& text) {
  try {
    perfgate::parse_endpoint(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Endpoint, ReadsAnIPv4HostAndPort) {
  const perfgate::Endpoint e = perfgate::parse_endpoint("127.0.0.1:8080");
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.port, 8080);
  EXPECT_EQ(perfgate::parse_endpoint("localhost:0").port, 0) << "port 0: the kernel picks one";
  EXPECT_EQ(perfgate::parse_endpoint("h:65535").port, 65535);
}

TEST(Endpoint, ReadsAnIPv6HostInBracketsAndWritesItBack) {
  const perfgate::Endpoint e = perfgate::parse_endpoint("[::1]:9000");
  EXPECT_EQ(e.host, "::1");
  EXPECT_EQ(e.port, 9000);
  EXPECT_EQ(e.to_string(), "[::1]:9000");
  EXPECT_EQ(perfgate::parse_endpoint("[fe80::1:2]:1").host, "fe80::1:2");
  EXPECT_EQ((perfgate::Endpoint{"10.0.0.1", 7}).to_string(), "10.0.0.1:7");
}

TEST(Endpoint, RefusesAMissingPortSayingSo) {
  EXPECT_EQ(refusal("127.0.0.1"), "'127.0.0.1' is not HOST:PORT or [IPv6]:PORT: no port");
  EXPECT_EQ(refusal("127.0.0.1:"), "'127.0.0.1:' is not HOST:PORT or [IPv6]:PORT: no port");
  EXPECT_EQ(refusal("[::1]"),
            "'[::1]' is not HOST:PORT or [IPv6]:PORT: an IPv6 address goes in brackets, as [::1]:PORT");
  EXPECT_EQ(refusal(":80"), "':80' is not HOST:PORT or [IPv6]:PORT: no host");
}

TEST(Endpoint, RefusesABadPortSayingSo) {
  EXPECT_EQ(refusal("h:http"),
            "'h:http' is not HOST:PORT or [IPv6]:PORT: the port 'http' is not a number from 0 to 65535");
  EXPECT_EQ(refusal("h:-1"), "'h:-1' is not HOST:PORT or [IPv6]:PORT: the port '-1' is not a number from 0 to 65535");
  EXPECT_EQ(refusal("h:65536"), "'h:65536' is not HOST:PORT or [IPv6]:PORT: the port 65536 is above 65535");
  EXPECT_EQ(refusal("h:123456"),
            "'h:123456' is not HOST:PORT or [IPv6]:PORT: the port '123456' is not a number from 0 to 65535");
  EXPECT_EQ(refusal("h:8080 "),
            "'h:8080 ' is not HOST:PORT or [IPv6]:PORT: the port '8080 ' is not a number from 0 to 65535");
}

TEST(Endpoint, RefusesAnIPv6AddressWithoutBrackets) {
  EXPECT_EQ(refusal("::1:8080"),
            "'::1:8080' is not HOST:PORT or [IPv6]:PORT: an IPv6 address goes in brackets, as [::1]:PORT");
}

TEST(ServerProcess, ReadsAnIPv6ListenLineAndKeepsTheWholeAnnouncement) {
  perfgate::ServerProcess server("/bin/sh",
                                 {"-c", R"(echo '{"listen": "[::1]:4321", "targets": ["[::1]:4321"]}'; exec sleep 60)"},
                                 "the test server", "it is /bin/sh");
  EXPECT_EQ(server.endpoint().host, "::1");
  EXPECT_EQ(server.endpoint().port, 4321);
  EXPECT_EQ(server.announce().at("targets").size(), 1u);
  const int status = server.stop();
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "stop() sends SIGTERM and returns the status";
}

TEST(ServerProcess, SaysWhatIsWrongWithTheAnnouncedAddress) {
  try {
    perfgate::ServerProcess server("/bin/sh", {"-c", R"(echo '{"listen": "127.0.0.1"}'; exec sleep 60)"},
                                   "the test server", "it is /bin/sh");
    FAIL() << "accepted a listen line without a port";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        R"(the test server announced '{"listen": "127.0.0.1"}': '127.0.0.1' is not HOST:PORT or [IPv6]:PORT: no port)");
  }
}

TEST(ServerProcess, PassesTheEnvironmentItIsGiven) {
  perfgate::ServerProcess server("/bin/sh",
                                 {"-c", R"(echo "{\"listen\": \"127.0.0.1:$PORT_FOR_TEST\"}"; exec sleep 60)"},
                                 "the test server", "it is /bin/sh", {{"PORT_FOR_TEST", "5150"}});
  EXPECT_EQ(server.endpoint().port, 5150);
}

}  // namespace
