// s3_put: the store process, the two upload shapes, their request counts, and the lies.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "put_sample.hpp"
#include "store_process.hpp"
#include "uploader.hpp"

namespace s3_put {
namespace {

TEST(Chunks, AreNamedByTheirSha256AndDeterministic) {
  const auto a = make_chunks(3, 1000), b = make_chunks(3, 1000);
  EXPECT_EQ(a[0].name, b[0].name);
  EXPECT_NE(a[0].name, a[1].name);
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(a[2].name, sha256_hex(a[2].bytes));
}

TEST(Store, AnswersHeadPutGetAndCountsThem) {
  StoreProcess store(S3_STORE_PROGRAM, 0);
  StoreConnection c(store.endpoint());
  EXPECT_EQ(c.head("x"), 404);
  c.put("x", "hello");
  EXPECT_EQ(c.head("x"), 200);
  const auto list = nlohmann::json::parse(c.get("/_admin/list"));
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0][1], sha256_hex("hello"));
  const auto stats = nlohmann::json::parse(c.get("/_admin/stats"));
  EXPECT_EQ(stats["head"], 2);
  EXPECT_EQ(stats["put"], 1);
}

TEST(Store, WritesItsWitnessOfTheRequestsItServedWhenStopped) {
  const auto dir = std::filesystem::temp_directory_path() / ("s3_put-witness-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ::setenv("PERFGATE_WITNESS_DIR", dir.c_str(), 1);
  {
    StoreProcess store(S3_STORE_PROGRAM, 0);
    ::unsetenv("PERFGATE_WITNESS_DIR");
    StoreConnection c(store.endpoint());
    EXPECT_EQ(c.head("x"), 404);
    c.put("x", "hello");
    c.get("/_admin/stats");  // admin requests are not counted
    EXPECT_EQ(store.stop(), 0);
  }
  std::ifstream in(dir / "s3_store.json");
  const auto witness = nlohmann::json::parse(in);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(witness["metrics"]["store_head_requests"]["value"], 1);
  EXPECT_EQ(witness["metrics"]["store_put_requests"]["value"], 1);
  EXPECT_EQ(witness["metrics"]["store_requests"]["value"], 2);
  EXPECT_EQ(witness["metrics"]["store_requests"]["exact"], true);
}

TEST(Upload, ProbingAndDirectStoreTheSameWithHalfTheRequests) {
  const auto chunks = make_chunks(20, 4096);
  nlohmann::json lists[2], stats[2];
  for (int variant = 0; variant < 2; ++variant) {
    StoreProcess store(S3_STORE_PROGRAM, 1);
    if (variant == 0)
      upload_probing(store.endpoint(), chunks, 4);
    else
      upload_direct(store.endpoint(), chunks, 4);
    StoreConnection admin(store.endpoint());
    lists[variant] = nlohmann::json::parse(admin.get("/_admin/list"));
    stats[variant] = nlohmann::json::parse(admin.get("/_admin/stats"));
  }
  EXPECT_EQ(lists[0], lists[1]);
  EXPECT_EQ(lists[0].size(), 20u);
  EXPECT_EQ(stats[0]["head"], 20);
  EXPECT_EQ(stats[0]["put"], 20);
  EXPECT_EQ(stats[1]["head"], 0);
  EXPECT_EQ(stats[1]["put"], 20);
}

perfgate::Invocation invocation(const std::string& variant, const std::string& lie = "") {
  perfgate::Invocation inv;
  inv.command = "run";
  inv.variant = variant;
  inv.lie = lie;
  inv.flags["store-bin"] = S3_STORE_PROGRAM;
  inv.params = {{"chunks", 24}, {"chunk_kib", 16}, {"concurrency", 8}, {"latency_ms", 1}};
  return inv;
}

TEST(Sample, SameDigestExactCountsAndEachLieIsSeen) {
  const auto before = run(invocation("before")).to_json(), after = run(invocation("after")).to_json();
  EXPECT_EQ(before["digest"], after["digest"]);
  EXPECT_FALSE(before.contains("equivalent"));
  EXPECT_EQ(before["metrics"]["requests"]["value"], 48.0);
  EXPECT_EQ(after["metrics"]["requests"]["value"], 24.0);
  for (const char* lie : {"skip-last-chunk", "empty-body", "shared-body", "unread-responses"}) {
    const auto j = run(invocation("after", lie)).to_json();
    EXPECT_NE(j["digest"], before["digest"]) << lie;
    EXPECT_EQ(j["equivalent"], false) << lie;
  }
}

TEST(Sample, RememberedPutsSkipsWhatAnEarlierSampleStoredOnAStoreThatStartedEmpty) {
  const auto run_dir = std::filesystem::temp_directory_path() / ("s3_put_test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(run_dir / "sample-1" / "work");
  ::setenv("PERFGATE_WORKDIR", (run_dir / "sample-1" / "work").c_str(), 1);
  const auto first = run(invocation("after", "remembered-puts")).to_json();
  const auto second = run(invocation("after", "remembered-puts")).to_json();
  ::unsetenv("PERFGATE_WORKDIR");
  std::filesystem::remove_all(run_dir);
  EXPECT_FALSE(first.contains("equivalent")) << "the first sample stores every chunk";
  EXPECT_EQ(second["equivalent"], false) << "the second skips them all: its store holds none";
}

TEST(StoreProcess, StopsAndReapsItsChildOnDestruction) {
  pid_t pid = -1;
  {
    StoreProcess store(S3_STORE_PROGRAM, 0);
    pid = store.pid();
    ASSERT_GT(pid, 0);
    EXPECT_EQ(::kill(pid, 0), 0);
  }
  EXPECT_EQ(::kill(pid, 0), -1);  // stopped and reaped: no such process
}

}  // namespace
}  // namespace s3_put
