// The SDK's helpers for scenario code: XML escaping (text and attribute rules), the thread CPU
// clock around a piece of work, and a child server the program starts and owns.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <string>

#include "perfgate/server_process.hpp"
#include "perfgate/thread_cpu.hpp"
#include "perfgate/xml_escape.hpp"

namespace {

TEST(XmlEscape, TextKeepsLinesAttributeEncodesThem) {
  const std::string s = "a<b & \"c\" 'd'\n\te\x01";
  EXPECT_EQ(perfgate::xml_escaped(s), "a&lt;b &amp; &quot;c&quot; 'd'\n\te");
  EXPECT_EQ(perfgate::xml_escaped(s, perfgate::XmlEscape::Attribute),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&#10;&#9;e");
  std::string out = "<x>";
  perfgate::append_xml_escaped(out, "1 > 0");
  EXPECT_EQ(out, "<x>1 &gt; 0");
}

TEST(ThreadCpu, AddsToTheTotalAndPassesTheResultThrough) {
  std::int64_t ns = 0;
  const std::string s = perfgate::add_thread_cpu(ns, [] { return std::string(1000, 'x'); });
  EXPECT_EQ(s.size(), 1000u);
  EXPECT_GE(ns, 0);
  const std::int64_t before = ns;
  int calls = 0;
  perfgate::add_thread_cpu(ns, [&] { ++calls; });
  EXPECT_EQ(calls, 1);
  EXPECT_GE(ns, before) << "a total only grows";
  EXPECT_DOUBLE_EQ(perfgate::ns_to_ms(2'500'000), 2.5);
}

TEST(ServerProcess, ReadsTheListenLineAndStopsAndReapsTheServer) {
  pid_t pid = -1;
  {
    perfgate::ServerProcess server("/bin/sh", {"-c", "echo '{\"listen\": \"127.0.0.1:4321\"}'; exec sleep 60"},
                                   "the test server", "it is /bin/sh");
    EXPECT_EQ(server.endpoint().host, "127.0.0.1");
    EXPECT_EQ(server.endpoint().port, 4321);
    pid = server.pid();
    EXPECT_EQ(::kill(pid, 0), 0) << "running while owned";
  }
  errno = 0;
  EXPECT_EQ(::kill(pid, 0), -1) << "stopped and reaped by the destructor";
  EXPECT_EQ(errno, ESRCH);
}

TEST(ServerProcess, SaysWhatWentWrongNamingTheServer) {
  auto message = [](const std::string& program, const std::vector<std::string>& args) {
    try {
      perfgate::ServerProcess server(program, args, "the test server", "build it");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("/nonexistent/server", {}), "the test server program is missing: /nonexistent/server (build it)");
  EXPECT_NE(message("/bin/true", {}).find("the test server exited before announcing its port"), std::string::npos);
  EXPECT_NE(message("/bin/echo", {"ready"}).find("the test server announced 'ready'"), std::string::npos);
}

}  // namespace
