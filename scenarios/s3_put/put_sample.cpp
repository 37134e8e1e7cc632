// One sample: the chunks are made and named before anything is timed (the deduplication
// layer has done that before the upload starts); a fresh store process is started, the upload
// is timed from the first request to the last answer (put_ms), then, outside the timed window,
// the store is read back: its request counters (exact counts: HEAD and PUT) and the listing
// of what it holds, with the SHA-256 the store computes over each object's stored bytes. The
// listing is the digest (one line per object: name, SHA-256, size), so both variants must have
// stored the same objects with the same bytes; the program also checks that every chunk is
// there under its content address and says which one is not, and that the store stored every
// chunk before put_ms ended (the store's timestamps, read first: no answer left unawaited).
#include "put_sample.hpp"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <perfgate/outside_window.hpp>
#include <set>

#include "store_process.hpp"
#include "uploader.hpp"

namespace s3_put {

namespace {

std::filesystem::path remembered_puts_file() {
  const char* workdir = std::getenv("PERFGATE_WORKDIR");
  // <run>/sample-N/work: the run's folder outlasts each sample's.
  const auto dir =
      workdir ? std::filesystem::path(workdir).parent_path().parent_path() : std::filesystem::temp_directory_path();
  return dir / "s3_put-remembered-puts";
}

long long monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Untimed, after the upload: when the store stored each chunk (its CLOCK_MONOTONIC, read once
// every other connection to it is closed and served, before the counters and the listing). Every chunk must be stored
// before put_ms's end: an upload that stopped its clock with PUTs unanswered shows here. The count is digested.
void check_stored_in_time(const nlohmann::json& stored, const std::vector<Chunk>& chunks, long long put_end_ns,
                          perfgate::OutputLog& log, perfgate::Report& report) {
  std::map<std::string, long long> at;
  for (const auto& object : stored) at[object[0].get<std::string>()] = object[1].get<long long>();
  std::size_t late = 0;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const auto it = at.find(chunks[i].name);
    if (it == at.end() || it->second <= put_end_ns) continue;  // a missing chunk is reported by the listing
    if (++late <= 3)
      report.not_equivalent("chunk " + std::to_string(i) + " was stored " +
                            std::to_string((it->second - put_end_ns) / 1000) + " us after put_ms ended");
  }
  log.line("chunks stored after put_ms ended: " + std::to_string(late));
}

}  // namespace

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto count = inv.param<std::size_t>("chunks");
  const auto chunk_kib = inv.param<std::size_t>("chunk_kib");
  const auto concurrency = inv.param<unsigned>("concurrency");
  const auto latency_ms = inv.param<double>("latency_ms");
  const auto chunks = make_chunks(count, chunk_kib * 1024);
  const auto program = inv.has("store-bin") ? std::filesystem::path(inv.flag("store-bin")) : default_store_program();
  StoreProcess store(program, latency_ms);

  // The lie "remembered-puts": AFTER remembers the names it stored in a file that outlasts the
  // sample (beside its folder, in the run's) and skips them next time, whatever store it talks to.
  const std::filesystem::path memory = remembered_puts_file();
  std::set<std::string> remembered;
  if (inv.lying("remembered-puts")) {
    std::ifstream in(memory);
    for (std::string name; std::getline(in, name);) remembered.insert(name);
  }

  std::thread background;  // the lie "unread-responses": the tail, still being PUT
  double put_ms = 0;
  long long put_end_ns = 0;
  {
    // perfgate reads its own clock where the upload begins and ends (the outside window 'put',
    // self_reported: put_ms).
    perfgate::OutsideWindow window("put");
    perfgate::Stopwatch clock;
    // The lie "late-put-clock": the clock started once the first PUT is answered.
    std::once_flag first_put;
    std::function<void()> after_first_put;
    if (inv.lying("late-put-clock")) after_first_put = [&] { std::call_once(first_put, [&] { clock.restart(); }); };
    if (inv.variant == "before")
      upload_probing(store.endpoint(), chunks, concurrency);
    else
      upload_direct(store.endpoint(), chunks, concurrency,
                    inv.lying("skip-last-chunk")    ? Shortcut::SkipLastChunk
                    : inv.lying("empty-body")       ? Shortcut::EmptyBody
                    : inv.lying("shared-body")      ? Shortcut::SharedBody
                    : inv.lying("unread-responses") ? Shortcut::UnreadTail
                                                    : Shortcut::None,
                    remembered, &background, after_first_put);
    put_ms = clock.ms();
    put_end_ns = monotonic_ns();  // put_ms's end on CLOCK_MONOTONIC, the store's clock too
  }
  if (background.joinable()) background.join();
  if (inv.lying("remembered-puts")) {
    std::ofstream out(memory);
    for (const auto& c : chunks) out << c.name << '\n';
  }

  StoreConnection admin(store.endpoint());
  const auto stored_at = nlohmann::json::parse(admin.get("/_admin/stored"));
  const auto stats = nlohmann::json::parse(admin.get("/_admin/stats"));
  const auto listing = nlohmann::json::parse(admin.get("/_admin/list"));

  perfgate::Report report;
  perfgate::Digest digest;
  perfgate::OutputLog log(digest);
  std::set<std::string> stored;
  double stored_bytes = 0;
  for (const auto& object : listing) {
    const auto name = object[0].get<std::string>(), sha = object[1].get<std::string>();
    const auto size = object[2].get<std::size_t>();
    log.line(name + '\t' + sha + '\t' + std::to_string(size));
    if (sha != name)
      report.not_equivalent("object " + name + " holds " + std::to_string(size) + " bytes whose SHA-256 is " + sha);
    stored.insert(name);
    stored_bytes += static_cast<double>(size);
  }
  for (std::size_t i = 0; i < chunks.size(); ++i)
    if (!stored.count(chunks[i].name))
      report.not_equivalent("chunk " + std::to_string(i) + " (" + chunks[i].name + ") is not in the store");
  check_stored_in_time(stored_at, chunks, put_end_ns, log, report);

  const double heads = stats.at("head").get<double>();
  // The lie "fewer-requests-told": each connection's last PUT left out of the count relayed (as
  // a tally that counts a request when the next one goes out would).
  const double puts = stats.at("put").get<double>() - (inv.lying("fewer-requests-told") ? concurrency : 0);
  report.metric("put_ms", put_ms, "ms")
      .metric("head_requests", heads, "count")
      .metric("put_requests", puts, "count")
      .metric("requests", heads + puts + stats.at("get").get<double>(), "count")
      .extra("stored_objects", stored.size())
      .extra("stored_mib", stored_bytes / (1024.0 * 1024.0))
      .extra("chunks", count)
      .extra("concurrency", concurrency)
      .extra("latency_ms", latency_ms)
      .digest(digest.hex());
  return report;
}

}  // namespace s3_put
