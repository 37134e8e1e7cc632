// upload_spool: the scenario contract around the read sweep and the frame spool (the SDK does
// the plumbing).
//   seed: the part files.   run: read pass (buffer --read-buffer-kib), then, unless
//   --read-only, the spool (--write bare|buffered). Syscalls are counted by the harness from
//   /proc/<pid>/io; the program also counts its own read(2)/write(2) calls as a cross-check.
//   Lies (spool.hpp): --lie short-read|drop-last-frame|skip-spool-write|swap-last-frames|
//   no-final-flush|digest-sidecar|eof-on-error|ignore-enospc|phantom-spool. Then the untimed probes (probes.cpp).
// The digest covers every byte of every part read and every spooled file's content.
#include <cstdlib>

#include "perfgate/scenario_main.hpp"
#include "spool.hpp"

namespace {

perfgate::json seed(const perfgate::Invocation& inv) {
  const auto p = upload_spool::params_from(inv);
  perfgate::Stopwatch sw;
  upload_spool::seed(inv.target, p);
  return {{"files", p.parts}, {"mib", p.parts * p.part_mib}, {"seconds", sw.ms() / 1e3}};
}

perfgate::Report run(const perfgate::Invocation& inv) {
  const auto p = upload_spool::params_from(inv);
  const std::size_t read_kib = std::stoul(inv.flag("read-buffer-kib", "64"));
  perfgate::Report report;
  perfgate::Digest work;
  perfgate::Digest lines_digest;
  perfgate::OutputLog out(lines_digest);  // the rows a mismatch is diffed on

  perfgate::Stopwatch sw;
  auto rd = upload_spool::read_parts(inv.fixture, p, read_kib * 1024);
  const double read_ms = sw.ms();
  work.field(rd.digest);
  for (const auto& l : rd.lines) out.line(l);
  report.metric("read_ms", read_ms, "ms").count("read_calls", static_cast<double>(rd.calls));
  // The KiB the read pass says it read: held to perfgate's rchar_kib (/proc/<pid>/io).
  report.metric("read_kib", static_cast<double>(rd.bytes) / 1024.0, "KiB");
  report.extra("read_digest", rd.digest).extra("read_bytes", rd.bytes);

  const char* dir = std::getenv("PERFGATE_WORKDIR");
  upload_spool::Spooler spool;  // the variant's writer, for the timed spool and the probe
  if (!inv.has("read-only")) {
    const std::string mode = inv.flag("write", "bare");
    const std::size_t write_buffer = std::stoul(inv.flag("write-buffer-kib", "512")) * 1024;
    if (mode == "bare")
      spool = [](const upload_spool::fs::path& d, const upload_spool::Params& q) {
        return upload_spool::spool_bare(d, q);
      };
    else if (mode == "buffered")
      spool = [write_buffer](const upload_spool::fs::path& d, const upload_spool::Params& q) {
        return upload_spool::spool_buffered(d, q, write_buffer);
      };
    else
      throw std::runtime_error("--write must be bare or buffered");
    sw.restart();
    auto wr = spool(dir ? dir : ".", p);
    report.metric("write_ms", sw.ms(), "ms").count("write_calls", static_cast<double>(wr.calls));
    report.extra("write_bytes", wr.bytes);
    // The KiB the spool says it wrote: held to perfgate's wchar_kib (/proc/<pid>/io).
    report.metric("spooled_kib", static_cast<double>(wr.bytes) / 1024.0, "KiB");
    work.field(wr.digest);
    for (const auto& l : wr.lines) out.line(l);
  }
  // Untimed, after every figure (probes.cpp): a rewritten part read again, a missing part, a
  // part that is a directory, and (the variant's writer) a spool file that is /dev/full.
  upload_spool::run_probes(dir ? dir : ".", p, read_kib * 1024, spool ? &spool : nullptr, out, work);
  return report.digest(work.hex());
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv, perfgate::ScenarioProgram("upload_spool").seed(seed).run(run));
}
