// upload_spool: the scenario contract around the read sweep and the frame spool.
//   seed: the part files.   run: read pass (buffer --read-buffer-kib), then, unless
//   --read-only, the spool (--write bare|buffered). Syscalls are counted by the harness from
//   /proc/<pid>/io; the program also counts its own read(2)/write(2) calls as a cross-check.
#include <cstdlib>
#include <iostream>

#include "spool.hpp"

int main(int argc, char** argv) {
  return perfgate::main_guard("upload_spool", [&] {
    auto inv = perfgate::parse_invocation(argc, argv);
    auto p = upload_spool::params_from(inv);
    if (inv.command == "seed") {
      perfgate::Stopwatch sw;
      upload_spool::seed(inv.target, p);
      std::cout << perfgate::json{{"files", p.parts}, {"mib", p.parts * p.part_mib}, {"seconds", sw.ms() / 1e3}}.dump()
                << std::endl;
      return 0;
    }
    if (inv.command != "run") throw std::runtime_error("upload_spool is a batch scenario: seed or run");
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
    report.metric("read_ms", read_ms, "ms").metric("read_calls", static_cast<double>(rd.calls), "count");
    report.extra("read_digest", rd.digest).extra("read_bytes", rd.bytes);

    if (!inv.has("read-only")) {
      const std::string mode = inv.flag("write", "bare");
      const char* dir = std::getenv("PERFGATE_WORKDIR");
      sw.restart();
      auto wr = mode == "bare"       ? upload_spool::spool_bare(dir ? dir : ".", p)
                : mode == "buffered" ? upload_spool::spool_buffered(
                                           dir ? dir : ".", p, std::stoul(inv.flag("write-buffer-kib", "512")) * 1024)
                                     : throw std::runtime_error("--write must be bare or buffered");
      report.metric("write_ms", sw.ms(), "ms").metric("write_calls", static_cast<double>(wr.calls), "count");
      report.extra("write_bytes", wr.bytes);
      work.field(wr.digest);
      for (const auto& l : wr.lines) out.line(l);
    }
    report.digest(work.hex()).print();
    return 0;
  });
}
