// Untimed probes, after the timed read pass and spool (main.cpp), each in its own folder of
// $PERFGATE_WORKDIR, removed after; one line each into the digest, the same for every variant:
//   fresh:  two small parts read with the variant's read buffer, one rewritten with other bytes of
//           the same size, both read again: each part's digest must follow its bytes;
//   errors: read_parts over a folder whose second part is missing (open fails, ENOENT) and over one
//           whose second part is a directory (read(2) fails, EISDIR): each must fail at that step.
// The parts are written through a mapping (write_part), so the probes add no write(2); their
// read(2) calls are a few per part (the parts fit one buffer).
#include <cstring>

#include "spool.hpp"

namespace upload_spool {
namespace {

constexpr std::size_t kProbeBytes = 4000;

struct Emit {
  perfgate::OutputLog& out;
  perfgate::Digest& work;
  void line(const std::string& l) {
    out.line(l);
    work.field(l);
  }
};

void probe_fresh(const fs::path& dir, Params q, std::size_t buffer, Emit& emit) {
  q.parts = 2;
  write_part(part_path(dir, 0), kProbeBytes, 1001);
  write_part(part_path(dir, 1), kProbeBytes, 1002);
  for (const auto& l : read_parts(dir, q, buffer).lines) emit.line("probe fresh, first read: " + l);
  write_part(part_path(dir, 1), kProbeBytes, 1003);  // other bytes, the same size and name
  for (const auto& l : read_parts(dir, q, buffer).lines) emit.line("probe fresh, part-001 rewritten: " + l);
}

void probe_error(const char* what, const fs::path& dir, Params q, std::size_t buffer, Emit& emit) {
  q.parts = 2;
  try {
    const ReadResult r = read_parts(dir, q, buffer);
    std::string answered;
    for (const auto& l : r.lines) answered += " [" + l + "]";
    emit.line(std::string("probe error, ") + what + ": no error, answered" + answered);
  } catch (const IoError& e) {
    emit.line(std::string("probe error, ") + what + ": failed at " + e.step + ": " + std::strerror(e.err));
  }
}

}  // namespace

void run_probes(const fs::path& workdir, const Params& p, std::size_t read_buffer, perfgate::OutputLog& out,
                perfgate::Digest& work) {
  Emit emit{out, work};
  const fs::path root = workdir / "probes";
  fs::remove_all(root);
  for (const char* sub : {"fresh", "missing", "isdir"}) fs::create_directories(root / sub);
  probe_fresh(root / "fresh", p, read_buffer, emit);

  write_part(part_path(root / "missing", 0), kProbeBytes, 1004);  // part-001.bin never written
  probe_error("part-001 missing", root / "missing", p, read_buffer, emit);
  write_part(part_path(root / "isdir", 0), kProbeBytes, 1005);
  fs::create_directory(part_path(root / "isdir", 1));  // a directory where part-001.bin should be
  probe_error("part-001 a directory", root / "isdir", p, read_buffer, emit);
  fs::remove_all(root);
}

}  // namespace upload_spool
