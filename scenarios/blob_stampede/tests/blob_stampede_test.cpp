// blob_stampede: the stampede, the single flight, the mid-stream failure, BEFORE's torn
// file (made to happen deterministically with the test-only hooks), and the remote process's
// lifetime. Real parts throughout: the blob_remote process on 127.0.0.1, real files.
// No assertion here is about time; waits are bounded only so that a bug fails, not hangs.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <perfgate/seeders/blobs.hpp>
#include <sstream>
#include <thread>

#include "blob_cache.hpp"
#include "remote_process.hpp"
#include "stampede.hpp"

namespace fs = std::filesystem;
using namespace blob_stampede;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t kBlobSize = 2u << 20;  // 2 MiB: 32 chunks of 64 KiB

fs::path make_temp_dir(const std::string& name) {
  std::string tmpl = (fs::temp_directory_path() / (name + ".XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp");
  return tmpl;
}

// Counts arrivals; waits (bounded) until n have arrived.
class Rendezvous {
 public:
  void arrive() {
    {
      std::lock_guard l(m_);
      ++count_;
    }
    cv_.notify_all();
  }
  bool wait_for(int n, std::chrono::seconds limit = 10s) {
    std::unique_lock l(m_);
    return cv_.wait_for(l, limit, [&] { return count_ >= n; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int count_ = 0;
};

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class BlobStampede : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new fs::path(make_temp_dir("blob_stampede_fixture"));
    blob_ = new perfgate::seeders::BlobInfo(perfgate::seeders::write_blob(*root_ / "blobs", kBlobSize, 42));
    xxh3_ = new std::string(xxh3_file(blob_->path));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*root_);
    delete root_;
    delete blob_;
    delete xxh3_;
  }
  void SetUp() override { cache_dir_ = make_temp_dir("blob_stampede_cache"); }
  void TearDown() override { fs::remove_all(cache_dir_); }

  static RemoteOptions remote_options(std::vector<int> fail_fetches = {}, std::uint64_t fail_after = 0) {
    RemoteOptions o;
    o.program = BLOB_REMOTE_PROGRAM;
    o.root = *root_ / "blobs";
    o.ttfb_ms = 1;
    o.bandwidth_mib_s = 0;  // unlimited: the tests order callers with hooks, not with time
    o.chunk_kib = 64;
    o.fail_fetches = std::move(fail_fetches);
    o.fail_after_bytes = fail_after;
    return o;
  }
  CacheConfig config(const RemoteProcess& remote, Hooks hooks = {}) const {
    CacheConfig c;
    c.dir = cache_dir_;
    c.remote = remote.endpoint();
    c.fsync = false;
    c.hooks = std::move(hooks);
    return c;
  }
  const std::string& source() const { return blob_->sha256; }  // the name: SHA-256
  const std::string& served() const { return *xxh3_; }         // what a whole stream hashes to

  static fs::path* root_;
  static perfgate::seeders::BlobInfo* blob_;
  static std::string* xxh3_;
  fs::path cache_dir_;
};
fs::path* BlobStampede::root_ = nullptr;
perfgate::seeders::BlobInfo* BlobStampede::blob_ = nullptr;
std::string* BlobStampede::xxh3_ = nullptr;

// --- single flight ----------------------------------------------------------------------

TEST_F(BlobStampede, AfterStampedeFetchesOnceAndServesTheSourceToEveryReader) {
  RemoteProcess remote(remote_options());
  Hooks hooks;
  std::unique_ptr<BlobCache> cache;
  // Hold the leader's fetch until the 7 others are waiting on its flight: a real stampede.
  hooks.after_open = [&](int) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (cache->counters().coalesced.load() < 7 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(100us);
  };
  cache = make_after(config(remote, hooks));
  const auto herd = run_stampede(*cache, source(), 8);
  EXPECT_EQ(cache->counters().coalesced.load(), 7u) << "7 readers waited on the leader's flight";
  for (const auto& r : herd.readers) {
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.hash, served());
    EXPECT_EQ(r.bytes, kBlobSize);
  }
  EXPECT_EQ(fetch_stats(remote.endpoint()).fetches, 1u);
  EXPECT_EQ(fetch_stats(remote.endpoint()).bytes, kBlobSize);
  EXPECT_TRUE(cache_file_ok(cache_dir_, source()));
  EXPECT_EQ(files_in(cache_dir_), std::vector<std::string>{source()}) << "no temporary file may be left";
  EXPECT_EQ(after::open_gates(*cache), 0u);

  // A warm read fetches nothing.
  const auto warm = read_one(*cache, source(), 99);
  EXPECT_EQ(warm.hash, served());
  EXPECT_EQ(fetch_stats(remote.endpoint()).fetches, 1u);
}

// The manifest's lies (AFTER only): a hit served short or empty, so a warm read differs.
TEST_F(BlobStampede, AfterLiesServeLessOnAHit) {
  RemoteProcess remote(remote_options());
  for (const auto& [lie, bytes] :
       {std::pair<std::string, std::uint64_t>{"truncated-hit", kBlobSize - 256 * 1024}, {"empty-hit", 0}}) {
    fs::remove_all(cache_dir_);
    fs::create_directories(cache_dir_);
    CacheConfig c = config(remote);
    c.lie = lie;
    auto cache = make_after(std::move(c));
    // The miss is fetched and written whole; the re-check after the fetch is a hit, as is a warm read.
    EXPECT_EQ(read_one(*cache, source(), 0).bytes, bytes) << lie;
    const auto warm = read_one(*cache, source(), 1);
    EXPECT_TRUE(warm.bytes == bytes && warm.hash != served()) << lie << ": " << warm.bytes;
    EXPECT_TRUE(cache_file_ok(cache_dir_, source())) << lie << ": the cache file itself is whole";
  }
}

// The order lie: every byte served, the first two chunks swapped, so the stream's hash differs.
TEST_F(BlobStampede, AfterLieSwapFirstChunksServesEveryByteOutOfOrder) {
  RemoteProcess remote(remote_options());
  CacheConfig c = config(remote);
  c.lie = "swap-first-chunks";
  auto cache = make_after(std::move(c));
  const auto warm = (read_one(*cache, source(), 0), read_one(*cache, source(), 1));
  EXPECT_EQ(warm.bytes, kBlobSize);
  EXPECT_NE(warm.hash, served());
}

TEST_F(BlobStampede, BeforeStampedeFetchesOncePerReader) {
  RemoteProcess remote(remote_options());
  Rendezvous opened;
  Hooks hooks;
  // Hold every reader after it opened the shared temporary path until all 8 have: a cold herd.
  hooks.after_open = [&](int) {
    opened.arrive();
    opened.wait_for(8);
  };
  auto cache = make_before(config(remote, hooks));
  const auto herd = run_stampede(*cache, source(), 8);
  for (const auto& r : herd.readers) {
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.hash, served()) << "each BEFORE reader serves the bytes of its own fetch";
  }
  EXPECT_EQ(fetch_stats(remote.endpoint()).fetches, 8u);
  EXPECT_EQ(fetch_stats(remote.endpoint()).bytes, 8 * kBlobSize);
  EXPECT_EQ(cache->counters().shared_tmp_writers.load(), 8u) << "all 8 wrote through one temporary file";
  EXPECT_EQ(cache->counters().lost_renames.load(), 7u);
}

TEST_F(BlobStampede, BothVariantsServeTheSameStreams) {
  RemoteProcess remote(remote_options());
  std::vector<std::string> streams[2];
  for (int v = 0; v < 2; ++v) {
    fs::remove_all(cache_dir_);
    fs::create_directories(cache_dir_);
    auto cache = make_cache(v == 0 ? "before" : "after", config(remote));
    for (const auto& r : run_stampede(*cache, source(), 6).readers)
      streams[v].push_back(r.hash + "/" + std::to_string(r.bytes));
  }
  EXPECT_EQ(streams[0], streams[1]);
  EXPECT_EQ(streams[0], std::vector<std::string>(6, served() + "/" + std::to_string(kBlobSize)));
}

// --- errors are never cached -------------------------------------------------------------

TEST_F(BlobStampede, AfterMidStreamFailureLeavesNoFileReleasesTheGateAndTheNextReaderFetches) {
  RemoteProcess remote(remote_options({1}, kBlobSize / 2));  // the first fetch dies halfway
  auto cache = make_after(config(remote));

  const auto failed = read_one(*cache, source(), 0);
  EXPECT_NE(failed.error, "") << "a body cut short must be an error";
  EXPECT_FALSE(fs::exists(cache_dir_ / source())) << "no file may land at the final path";
  EXPECT_TRUE(files_in(cache_dir_).empty()) << "the temporary file must be cleaned up";
  EXPECT_EQ(after::open_gates(*cache), 0u) << "the gate must be released";
  EXPECT_EQ(cache->counters().temp_cleanups.load(), 1u);

  const auto retry = read_one(*cache, source(), 1);
  EXPECT_EQ(retry.error, "");
  EXPECT_EQ(retry.hash, served());
  const auto stats = fetch_stats(remote.endpoint());
  EXPECT_EQ(stats.fetches, 2u) << "the failure was not remembered: the next reader fetched again";
  EXPECT_EQ(stats.failed, 1u);
  EXPECT_TRUE(cache_file_ok(cache_dir_, source()));
}

TEST_F(BlobStampede, AfterFailedLeaderHandsTheFetchToTheNextWaiter) {
  RemoteProcess remote(remote_options({1}, kBlobSize / 2));
  auto cache = make_after(config(remote));
  const auto herd = run_stampede(*cache, source(), 6);
  int errors = 0;
  for (const auto& r : herd.readers) {
    if (!r.error.empty()) {
      ++errors;
    } else {
      EXPECT_EQ(r.hash, served());
    }
  }
  EXPECT_EQ(errors, 1) << "only the caller whose fetch failed sees the error";
  EXPECT_EQ(fetch_stats(remote.endpoint()).fetches, 2u);
  EXPECT_TRUE(cache_file_ok(cache_dir_, source()));
  EXPECT_EQ(files_in(cache_dir_), std::vector<std::string>{source()});
  EXPECT_EQ(after::open_gates(*cache), 0u);
}

// --- BEFORE's race, made deterministic ---------------------------------------------------

// Reader A fetches the whole blob through <sha>.tmp and is held just before its rename.
// Reader B then opens the same fixed path (O_TRUNC: A's bytes are gone), writes half the blob
// and its fetch dies. A renames "its" file into the cache: the torn file lands at the final
// path, although A itself served correct bytes. The hash gate must see it.
TEST_F(BlobStampede, BeforeTornFileIsRenamedIntoTheCacheAndTheHashGateDetectsIt) {
  RemoteProcess remote(remote_options({2}, kBlobSize / 2));  // B's fetch (the 2nd) dies halfway
  Rendezvous a_ready, go;
  Hooks hooks;
  hooks.before_rename = [&](int reader) {
    if (reader != 0) return;
    a_ready.arrive();
    go.wait_for(1);
  };
  auto cache = make_before(config(remote, hooks));
  ReaderResult a;
  std::thread ta([&] { a = read_one(*cache, source(), 0); });
  ASSERT_TRUE(a_ready.wait_for(1));
  const ReaderResult b = read_one(*cache, source(), 1);
  go.arrive();
  ta.join();

  EXPECT_EQ(a.error, "");
  EXPECT_EQ(a.hash, served()) << "A served its own fetch: correct bytes";
  EXPECT_NE(b.error, "");
  ASSERT_TRUE(fs::exists(cache_dir_ / source())) << "A renamed the shared temporary file into place";
  EXPECT_EQ(fs::file_size(cache_dir_ / source()), kBlobSize / 2);
  EXPECT_FALSE(cache_file_ok(cache_dir_, source())) << "the hash gate must detect the torn file";
  EXPECT_EQ(cache->counters().shared_tmp_writers.load(), 2u);

  // And the next (warm) reader is served the torn bytes without a fetch: the hazard.
  const auto warm = read_one(*cache, source(), 2);
  EXPECT_NE(warm.hash, served());
  EXPECT_EQ(fetch_stats(remote.endpoint()).fetches, 2u);
}

// The same interleaving through AFTER's write path (unique temporary names, cleanup on
// error), even without the gate: the cache file is whole and no temporary file is left.
TEST_F(BlobStampede, AfterWritePathCannotTearUnderTheSameInterleaving) {
  RemoteProcess remote(remote_options({2}, kBlobSize / 2));
  Rendezvous a_ready, go;
  CacheConfig c = config(remote);
  c.hooks.before_rename = [&](int reader) {
    if (reader != 0) return;
    a_ready.arrive();
    go.wait_for(1);
  };
  CacheCounters counters;
  std::exception_ptr a_error;
  std::thread ta([&] {
    try {
      after::fill_cache_file(c, counters, source(), 0);
    } catch (...) {
      a_error = std::current_exception();
    }
  });
  ASSERT_TRUE(a_ready.wait_for(1));
  EXPECT_ANY_THROW(after::fill_cache_file(c, counters, source(), 1));
  go.arrive();
  ta.join();
  EXPECT_FALSE(a_error);
  EXPECT_TRUE(cache_file_ok(cache_dir_, source()));
  EXPECT_EQ(files_in(cache_dir_), std::vector<std::string>{source()});
  EXPECT_EQ(counters.temp_cleanups.load(), 1u);
}

// --- the remote never outlives its owner -------------------------------------------------

bool process_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

TEST_F(BlobStampede, RemoteProcessIsStoppedAndReapedByItsDestructor) {
  pid_t pid;
  {
    RemoteProcess remote(remote_options());
    pid = remote.pid();
    ASSERT_GT(pid, 0);
    EXPECT_FALSE(process_gone(pid));
    EXPECT_EQ(fetch_stats(remote.endpoint()).fetches, 0u);
  }
  EXPECT_TRUE(process_gone(pid));
}

// Adopt orphans so that we can reap (and observe) a remote whose owner died.
struct Subreaper {
  Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
  ~Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

// Waits (bounded) for an adopted process to die; returns its wait status or -1.
int reap(pid_t pid, std::chrono::seconds limit = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(5ms);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

TEST_F(BlobStampede, RemoteProcessDiesWhenItsOwnerIsKilled) {
  Subreaper subreaper;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t owner = ::fork();
  ASSERT_GE(owner, 0);
  if (owner == 0) {  // the owner: starts the remote, reports its pid, dies without cleanup
    ::close(fds[0]);
    auto* remote = new RemoteProcess(remote_options());
    const pid_t pid = remote->pid();
    if (::write(fds[1], &pid, sizeof pid) != sizeof pid) ::_exit(2);
    ::kill(::getpid(), SIGKILL);
  }
  ::close(fds[1]);
  pid_t remote_pid = -1;
  ASSERT_EQ(::read(fds[0], &remote_pid, sizeof remote_pid), static_cast<ssize_t>(sizeof remote_pid));
  ::close(fds[0]);
  int owner_status = 0;
  ::waitpid(owner, &owner_status, 0);
  ASSERT_TRUE(WIFSIGNALED(owner_status));
  const int status = reap(remote_pid);
  ASSERT_NE(status, -1) << "the remote outlived its owner";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "killed by PR_SET_PDEATHSIG";
}

// The whole program: seed, run, and afterwards no process serves our fixture; and when the
// program is killed mid-run, its remote dies with it.
std::vector<pid_t> processes_mentioning(const std::string& needle) {
  std::vector<pid_t> pids;
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), {});
    std::ifstream st(e.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(st)), {});
    const auto close_paren = stat.rfind(')');
    const bool zombie =
        close_paren != std::string::npos && close_paren + 2 < stat.size() && stat[close_paren + 2] == 'Z';
    if (!zombie && cmdline.find(needle) != std::string::npos && name != std::to_string(::getpid()))
      pids.push_back(std::stoi(name));
  }
  return pids;
}

int run_program(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!std::getenv("PERFGATE_KEEP_OUTPUT")) {
      FILE* null = std::fopen("/dev/null", "w");
      if (null) ::dup2(::fileno(null), 1);
    }
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(BlobStampedeProgram, LeavesNoRemoteBehindOnExitOrWhenKilled) {
  const fs::path fixture = make_temp_dir("blob_stampede_program");
  const std::string params = R"({"blob_mib": 1, "readers": 4, "ttfb_ms": 1, "bandwidth_mib_s": 0, "fsync": false})";
  ASSERT_EQ(run_program(
                {BLOB_STAMPEDE_PROGRAM, "seed", "--profile", "test", "--target", fixture.string(), "--params", params}),
            0);
  for (const std::string variant : {"before", "after"}) {
    EXPECT_EQ(run_program({BLOB_STAMPEDE_PROGRAM, "run", "--variant", variant, "--profile", "test", "--fixture",
                           fixture.string(), "--params", params, "--remote-bin", BLOB_REMOTE_PROGRAM}),
              0);
    EXPECT_EQ(processes_mentioning(fixture.string()), std::vector<pid_t>{}) << "a remote outlived " << variant;
  }

  // Kill the program while its remote is up (a slow link keeps it running for a while).
  Subreaper subreaper;
  const std::string slow = R"({"blob_mib": 1, "readers": 4, "ttfb_ms": 1, "bandwidth_mib_s": 0.05, "fsync": false})";
  const pid_t program = ::fork();
  if (program == 0) {
    // Its work directory cannot be removed by a killed program: keep it inside ours.
    fs::create_directories(fixture / "tmp");
    ::setenv("TMPDIR", (fixture / "tmp").c_str(), 1);
    FILE* null = std::fopen("/dev/null", "w");
    if (null) ::dup2(::fileno(null), 1);
    ::execl(BLOB_STAMPEDE_PROGRAM, BLOB_STAMPEDE_PROGRAM, "run", "--variant", "before", "--profile", "test",
            "--fixture", fixture.c_str(), "--params", slow.c_str(), "--remote-bin", BLOB_REMOTE_PROGRAM,
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::vector<pid_t> remotes;
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < deadline) {
    for (pid_t p : processes_mentioning(fixture.string()))
      if (p != program) remotes.push_back(p);
    if (!remotes.empty()) break;
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(remotes.size(), 1u) << "the program should have started one remote";
  ::kill(program, SIGKILL);
  int status = 0;
  ::waitpid(program, &status, 0);
  const int remote_status = reap(remotes[0]);
  EXPECT_NE(remote_status, -1) << "the remote outlived the killed program";
  EXPECT_EQ(processes_mentioning(fixture.string()), std::vector<pid_t>{});
  fs::remove_all(fixture);
}

}  // namespace
