// upload_spool through the scenario contract, as the harness runs it: `seed`, then `run` with
// each variant's own arguments from scenario.json. BEFORE and AFTER must print the same digest
// and the same $PERFGATE_OUTPUT lines while AFTER makes far fewer read(2)/write(2) calls; the
// read-only sweep variants must read what BEFORE read (their gate is extra.read_digest).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "spool.hpp"

namespace {

using json = nlohmann::json;
using upload_spool::fs::path;

std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Ran {
  int status = -1;
  json last;           // the contract's last stdout line
  std::string output;  // $PERFGATE_OUTPUT
};

class Program : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (upload_spool::fs::temp_directory_path() / "upload-spool-program-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root = tmpl;
    upload_spool::fs::create_directories(root / "fixture");
    std::ifstream in(UPLOAD_SPOOL_MANIFEST);
    manifest = json::parse(in);
    ASSERT_EQ(sh(std::string(UPLOAD_SPOOL_BIN) + " seed --profile quick --target " +
                 quoted((root / "fixture").string()) + " --params " + quoted(params.dump())),
              0);
  }
  void TearDown() override { upload_spool::fs::remove_all(root); }

  int sh(const std::string& command) { return std::system((command + " >/dev/null 2>&1").c_str()); }

  // `run --variant V` with the manifest's args for V, in a fresh working folder like a sample's.
  Ran run(const std::string& variant, const std::vector<std::string>& more = {}) {
    std::vector<std::string> args;
    for (const auto& v : manifest["variants"])
      if (v["name"] == variant) args = v.value("args", std::vector<std::string>{});
    args.insert(args.end(), more.begin(), more.end());
    const path work = root / ("work-" + variant + std::to_string(++runs));
    upload_spool::fs::create_directories(work);
    std::string cmd = "cd " + quoted(work.string()) + " && PERFGATE_WORKDIR=" + quoted(work.string()) +
                      " PERFGATE_OUTPUT=" + quoted((work / "output").string()) + " " + UPLOAD_SPOOL_BIN +
                      " run --variant " + variant + " --profile quick --fixture " +
                      quoted((root / "fixture").string()) + " --params " + quoted(params.dump());
    for (const auto& a : args) cmd += " " + quoted(a);
    Ran r;
    r.status = std::system((cmd + " >" + quoted((work / "stdout").string()) + " 2>&1").c_str());
    std::ifstream out(work / "stdout");
    std::string line, last;
    while (std::getline(out, line))
      if (!line.empty()) last = line;
    r.last = json::parse(last, nullptr, false);
    std::ifstream log(work / "output");
    r.output.assign(std::istreambuf_iterator<char>(log), {});
    return r;
  }

  json params = {{"parts", 3}, {"part_mib", 1}, {"files", 3}, {"frames", 64}, {"frame_kib", 16}};
  json manifest;
  path root;
  int runs = 0;
};

double metric(const Ran& r, const std::string& name) { return r.last["metrics"][name]["value"].get<double>(); }

TEST_F(Program, BeforeAndAfterDoTheSameWorkWithFewerCalls) {
  const Ran before = run("before"), after = run("after");
  ASSERT_EQ(before.status, 0);
  ASSERT_EQ(after.status, 0);
  EXPECT_EQ(before.last["digest"], after.last["digest"]);
  EXPECT_EQ(before.output, after.output);  // the lines a mismatch would be diffed on
  // every part, every upload, then the probes: two parts read twice, two read errors, one write error
  EXPECT_EQ(std::count(before.output.begin(), before.output.end(), '\n'), 3 + 3 + 4 + 2 + 1);
  EXPECT_NE(before.output.find("part-001 missing: failed at open: No such file or directory"), std::string::npos);
  EXPECT_NE(before.output.find("part-001 a directory: failed at read: Is a directory"), std::string::npos);
  EXPECT_NE(before.output.find("upload-0.spool a symlink to /dev/full: failed at write: ENOSPC"), std::string::npos);
  EXPECT_EQ(before.last["extra"]["read_bytes"], after.last["extra"]["read_bytes"]);
  EXPECT_EQ(before.last["extra"]["write_bytes"], after.last["extra"]["write_bytes"]);
  EXPECT_EQ(metric(before, "read_calls"), 3 * (16 + 1));  // 64 KiB reads of 1 MiB parts
  EXPECT_EQ(metric(after, "read_calls"), 3 * (2 + 1));    // 512 KiB reads
  EXPECT_EQ(metric(before, "write_calls"), 3 * 64);       // one write(2) per frame
  EXPECT_EQ(metric(after, "write_calls"), 3 * 2);         // one per full 512 KiB buffer
  EXPECT_EQ(metric(before, "spooled_kib"), 3 * 64 * 16);  // what perfgate's wchar_kib must reach
  EXPECT_EQ(metric(after, "read_kib"), 3 * 1024);         // what its rchar_kib must reach
}

TEST_F(Program, ReadOnlySweepsReadWhatBeforeRead) {
  const Ran before = run("before");
  for (const char* sweep : {"read-256k", "read-1m"}) {
    const Ran r = run(sweep);
    ASSERT_EQ(r.status, 0) << sweep;
    EXPECT_EQ(r.last["extra"]["read_digest"], before.last["extra"]["read_digest"]) << sweep;
    EXPECT_FALSE(r.last["extra"].contains("write_bytes")) << sweep;  // the read pass only
  }
}

TEST_F(Program, EquivalenceLiesChangeTheDigestAndUnknownOnesAreRefused) {
  const Ran before = run("before");
  for (const auto& lie : manifest["lies"]) {
    // Absent args: the manifest's default, --lie NAME.
    const Ran r = run("after", lie.contains("args") ? lie["args"].get<std::vector<std::string>>()
                                                    : std::vector<std::string>{"--lie", lie["name"]});
    ASSERT_EQ(r.status, 0) << lie["name"];
    EXPECT_EQ(r.last["extra"]["lie"], lie["name"]);
    if (lie["name"] == "phantom-spool")  // the same answers and spooled_kib: caught by perfgate's wchar_kib
      EXPECT_TRUE(r.last["digest"] == before.last["digest"] &&
                  metric(r, "spooled_kib") == metric(before, "spooled_kib") && metric(r, "write_calls") == 3)
          << lie["name"];
    else if (lie["caught_by"] == "equivalence")
      EXPECT_NE(r.last["digest"], before.last["digest"]) << lie["name"];
    else  // exact:syscw: the same digest, and not one write(2)
      EXPECT_TRUE(r.last["digest"] == before.last["digest"] && metric(r, "write_calls") == 0) << lie["name"];
  }
  EXPECT_NE(run("after", {"--lie", "no-such-lie"}).status, 0);
}

}  // namespace
