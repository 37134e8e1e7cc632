// blob_stampede's seed and sample (main.cpp hands them to the SDK). The digest covers what
// every reader was served (XXH3-128 and size of each stream, in reader order), the warm read
// and a cold read of a second, small blob after it (so the cache holds two), in both variants;
// the cache file is not in it (BEFORE's tears by design: torn_files).
#include "stampede_sample.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <perfgate/outside_window.hpp>
#include <perfgate/percentile.hpp>
#include <perfgate/sample.hpp>
#include <perfgate/seeders/blobs.hpp>
#include <thread>

#include "blob_cache.hpp"
#include "remote_process.hpp"
#include "stampede.hpp"

namespace fs = std::filesystem;
using perfgate::json;

namespace {

constexpr std::uint64_t kSeed = 0x5eed000005ULL;  // seed 000 [5]
constexpr int kLateHerd = 8;                      // the untimed herd on two blobs
// A well-formed SHA-256 the remote does not hold (the empty string's).
constexpr const char* kUnknownSha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

// When `path` got its name: its ctime (a rename sets it), waiting (bounded) for it to appear,
// so that a fill moved behind the readers shows as late rather than as a missing file.
std::optional<std::chrono::system_clock::time_point> rename_time(const fs::path& path) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  struct stat st {};
  while (::stat(path.c_str(), &st) != 0) {
    if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const auto since_epoch = std::chrono::seconds(st.st_ctim.tv_sec) + std::chrono::nanoseconds(st.st_ctim.tv_nsec);
  return std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(since_epoch));
}

long ms_between(std::chrono::system_clock::time_point a, std::chrono::system_clock::time_point b) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

// A fresh directory for the local cache, removed on every exit path.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("PERFGATE_WORKDIR");
    if (!base || !*base) base = std::getenv("TMPDIR");
    std::string tmpl = (fs::path(base && *base ? base : "/tmp") / "blob_stampede.XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a directory from " + tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

namespace blob_stampede {

perfgate::json seed(const perfgate::Invocation& inv) {
  perfgate::Stopwatch sw;
  const auto mib = inv.param<std::uint64_t>("blob_mib");
  const fs::path target = inv.target;
  const auto blob = perfgate::seeders::write_blob(target / "blobs", mib << 20, kSeed);
  // The name (SHA-256, the content address) and the XXH3-128 readers' streams are checked against.
  const std::string xxh3 = blob_stampede::xxh3_file(blob.path);
  // A second, small blob: read once after the warm read, so the cache holds two and a lookup
  // that ignores the hash answers the wrong one.
  const auto second = perfgate::seeders::write_blob(target / "blobs", 1 << 20, kSeed + 1);
  // Two more, small: the untimed herd on two cold blobs at once (late_herd).
  json herd_blobs = json::array();
  for (std::uint64_t k : {2, 3}) {
    const auto b = perfgate::seeders::write_blob(target / "blobs", 1 << 20, kSeed + k);
    herd_blobs.push_back({{"sha256", b.sha256}, {"xxh3_128", xxh3_file(b.path)}, {"size", b.size}});
  }
  std::ofstream(target / "blob.json")
      << json{{"sha256", blob.sha256},
              {"xxh3_128", xxh3},
              {"size", blob.size},
              {"second", {{"sha256", second.sha256}, {"xxh3_128", xxh3_file(second.path)}, {"size", second.size}}},
              {"herd_blobs", herd_blobs}}
             .dump()
      << '\n';
  return json{{"blob_sha256", blob.sha256}, {"bytes", blob.size}, {"seconds", sw.ms() / 1000}};
}

perfgate::Report run(const perfgate::Invocation& inv) {
  const fs::path fixture = inv.fixture;
  json blob;
  std::ifstream(fixture / "blob.json") >> blob;
  if (blob.is_null()) throw std::runtime_error("no blob.json in the fixture " + fixture.string() + ": run seed first");
  const std::string source = blob.at("sha256");
  if (!blob.contains("xxh3_128") || !blob.contains("second") || !blob.contains("herd_blobs"))
    throw std::runtime_error("the fixture " + fixture.string() +
                             " predates blob.json's xxh3_128, second and herd_blobs: reseed");
  const std::string source_xxh3 = blob.at("xxh3_128");
  const std::uint64_t size = blob.at("size");
  if (size != inv.param<std::uint64_t>("blob_mib") << 20)
    throw std::runtime_error("the fixture holds a blob of " + std::to_string(size) +
                             " bytes, the profile asks for blob_mib=" + inv.params.at("blob_mib").dump() + ": reseed");
  const int readers = inv.param<int>("readers");

  RemoteOptions ro;
  ro.program = inv.has("remote-bin") ? fs::path(inv.flag("remote-bin")) : default_remote_program();
  ro.root = fixture / "blobs";
  ro.ttfb_ms = inv.param<double>("ttfb_ms");
  ro.bandwidth_mib_s = inv.param<double>("bandwidth_mib_s");
  ro.chunk_kib = inv.param<unsigned>("chunk_kib", 256);
  ro.witness_blob = source;  // the remote states what it served of the herd's blob (remote_fetches, remote_mib)

  TempDir work;
  const fs::path cache_dir = inv.has("keep-cache") ? fs::path(inv.flag("keep-cache")) : work.path() / "cache";
  fs::create_directories(cache_dir);
  if (fs::exists(cache_dir / source)) throw std::runtime_error("the cache " + cache_dir.string() + " is not cold");

  RemoteProcess remote(ro);
  CacheConfig config;
  config.dir = cache_dir;
  config.remote = remote.endpoint();
  config.fsync = inv.param<bool>("fsync", true);
  config.lie = inv.lie;
  auto cache = make_cache(inv.variant, config);

  // The stampede: K cold readers at once. perfgate reads its own clock where it begins and ends
  // (the outside window 'stampede', self_reported: stampede_ms).
  const StampedeResult herd = [&] {
    perfgate::OutsideWindow window("stampede");
    return run_stampede(*cache, source, readers, 0, inv.lying("early-stampede-clock"));
  }();
  const auto herd_end = std::chrono::system_clock::now();
  // Untimed: the cache file must have landed within the herd (its ctime, set by the rename).
  const auto landed_at = rename_time(cache_dir / source);
  const bool landed_in_herd = landed_at && *landed_at <= herd_end;
  const RemoteStats after_herd = fetch_stats(remote.endpoint());

  // The durable cache file, checked once everybody is done (outside the timed window).
  const bool file_ok = cache_file_ok(cache_dir, source);
  const std::string file_hash =
      fs::exists(cache_dir / source) ? perfgate::seeders::sha256_file(cache_dir / source) : "";

  // A warm read: must fetch nothing.
  const ReaderResult warm = read_one(*cache, source, readers);
  const RemoteStats after_warm = fetch_stats(remote.endpoint());
  // Then the second blob, cold: the cache now holds two (outside every timed figure).
  const ReaderResult other = read_one(*cache, blob.at("second").at("sha256"), readers + 1);
  // Untimed, after it: a herd on two cold blobs at once, readers alternating between them.
  std::vector<std::string> late_blobs;
  for (int i = 0; i < kLateHerd; ++i) late_blobs.push_back(blob.at("herd_blobs").at(i % 2).at("sha256"));
  const StampedeResult late_herd = run_stampede(*cache, late_blobs, readers + 2);
  // Untimed: bad names, a well-formed one the remote does not hold and one that is not hex.
  std::vector<std::pair<std::string, ReaderResult>> bad;
  for (const std::string name : {kUnknownSha256, "nothex"}) bad.emplace_back(name, read_one(*cache, name, readers + 1));

  // What every reader was served, and the warm read, in both variants: in the digest, and
  // checked against the source (a wrong stream is a wrong answer: exit 3 through the harness).
  perfgate::Report report;
  perfgate::Digest digest;
  perfgate::OutputLog out(digest);
  std::vector<double> reader_ms;
  auto check_of = [&](const std::string& who, const ReaderResult& r, const std::string& want_xxh3,
                      std::uint64_t want_size) {
    out.line(who + " xxh3_128=" + r.hash + " bytes=" + std::to_string(r.bytes));
    if (r.hash != want_xxh3 || r.bytes != want_size)
      report.not_equivalent(who + " was served " + std::to_string(r.bytes) + " bytes with xxh3-128 " + r.hash +
                            "; the source has " + std::to_string(want_size) + " bytes with xxh3-128 " + want_xxh3);
  };
  auto check = [&](const std::string& who, const ReaderResult& r) { check_of(who, r, source_xxh3, size); };
  for (int i = 0; i < readers; ++i) {
    const ReaderResult& r = herd.readers[static_cast<std::size_t>(i)];
    if (!r.error.empty()) throw std::runtime_error("reader " + std::to_string(i) + " failed: " + r.error);
    check("reader " + std::to_string(i), r);
    reader_ms.push_back(r.ms);
  }
  if (!warm.error.empty()) throw std::runtime_error("the warm read failed: " + warm.error);
  check("warm read", warm);
  if (!other.error.empty()) throw std::runtime_error("the second blob's read failed: " + other.error);
  check_of("second blob", other, blob.at("second").at("xxh3_128"), blob.at("second").at("size"));
  out.line(std::string("cache file in place at the herd's end: ") + (landed_in_herd ? "yes" : "no"));
  if (!landed_in_herd)
    report.not_equivalent(landed_at ? "the cache file landed " + std::to_string(ms_between(herd_end, *landed_at)) +
                                          " ms after the herd's end: its fill left the timed window"
                                    : "no cache file at " + (cache_dir / source).string() + " after the herd");
  for (int i = 0; i < kLateHerd; ++i) {
    const ReaderResult& r = late_herd.readers[static_cast<std::size_t>(i)];
    const json& want = blob.at("herd_blobs").at(i % 2);
    if (!r.error.empty()) throw std::runtime_error("late herd reader " + std::to_string(i) + " failed: " + r.error);
    check_of("late herd reader " + std::to_string(i), r, want.at("xxh3_128"), want.at("size"));
  }
  for (const auto& [name, r] : bad) {
    const bool left = fs::exists(cache_dir / name);
    out.line("read of '" + name + "': " + (r.error.empty() ? "served " + std::to_string(r.bytes) + " bytes" : "error") +
             (left ? ", a file at its final path" : ""));
    if (r.error.empty() || left)
      report.not_equivalent("the read of '" + name + "' " +
                            (r.error.empty() ? "was served " + std::to_string(r.bytes) + " bytes" : "failed") +
                            (left ? " and left a file at its final path" : "") + "; expected an error and no file");
  }
  const std::uint64_t warm_fetches = after_warm.fetches - after_herd.fetches;
  if (warm_fetches != 0)
    throw std::runtime_error("gate: the warm read fetched from the remote " + std::to_string(warm_fetches) +
                             " time(s)");
  const bool warm_ok = warm.hash == source_xxh3 && warm.bytes == size;
  const int torn = file_ok ? 0 : 1;

  if (inv.variant == "after") {  // AFTER's own gates: one fetch, an intact cache file
    if (after_herd.fetches != 1)
      throw std::runtime_error("gate: AFTER fetched " + std::to_string(after_herd.fetches) +
                               " times, expected exactly 1");
    if (!file_ok)
      throw std::runtime_error("gate: AFTER's cache file " + (cache_dir / source).string() + " has sha256 " +
                               file_hash + ", the source " + source);
  } else if (torn) {
    std::cerr << "blob_stampede: BEFORE left a torn cache file (sha256 " << (file_hash.empty() ? "none" : file_hash)
              << ", source " << source << "): the write-up's race, counted in torn_files" << std::endl;
  }

  // When the blob first landed in the cache, from the release of the readers.
  using std::chrono::steady_clock;
  const std::int64_t landed = cache->counters().first_landed.load();
  const double landed_ms = landed ? std::chrono::duration<double, std::milli>(
                                        steady_clock::time_point(steady_clock::duration(landed)) - herd.released)
                                        .count()
                                  : -1;

  // The lie "fewer-fetches-told": only the fetches beyond the first one relayed (the stampede's
  // extra fetches, as if the leader's were not one).
  const std::uint64_t fetches_told =
      inv.lying("fewer-fetches-told") && after_herd.fetches ? after_herd.fetches - 1 : after_herd.fetches;
  report.digest(digest.hex())
      .metric("stampede_ms", herd.wall_ms, "ms")
      .count("remote_fetches", static_cast<double>(fetches_told))
      .metric("remote_mib", static_cast<double>(after_herd.bytes) / (1 << 20), "MiB")
      .metric("torn_files", torn, "count")
      .metric("shared_tmp_writers", static_cast<double>(cache->counters().shared_tmp_writers), "count")
      .count("warm_fetches", static_cast<double>(warm_fetches))
      .count("fsyncs", static_cast<double>(cache->counters().fsyncs))
      .metric("warm_read_ms", warm.ms, "ms")
      .metric("reader_ms_p50", perfgate::percentile(reader_ms, 0.5), "ms")
      .metric("landed_ms", landed_ms, "ms")
      .series("reader_ms", reader_ms, "ms")
      .extra("source_sha256", source)
      .extra("cache_file_sha256", file_hash)
      .extra("warm_read_ok", warm_ok)
      .extra("lost_renames", cache->counters().lost_renames.load())
      .extra("coalesced_waits", cache->counters().coalesced.load())
      .extra("readers", readers)
      .extra("remote", {{"ttfb_ms", ro.ttfb_ms},
                        {"bandwidth_mib_s", ro.bandwidth_mib_s},
                        {"chunk_kib", ro.chunk_kib},
                        {"completed", after_warm.completed},
                        {"failed", after_warm.failed}});
  cache.reset();
  return report;
}

}  // namespace blob_stampede
