// Untimed probes, after the timed read pass and spool (main.cpp), each in its own folder of
// $PERFGATE_WORKDIR, removed after; one line each into the digest, the same for every variant:
//   fresh:  two small parts read with the variant's read buffer, one rewritten with other bytes of
//           the same size, both read again: each part's digest must follow its bytes;
//   errors: read_parts over a folder whose second part is missing (open fails, ENOENT) and over one
//           whose second part is a directory (read(2) fails, EISDIR): each must fail at that step;
//   enospc: the variant's writer spools one upload of 4 frames into a folder where upload-0.spool
//           is a symlink to /dev/full: it must fail at write with ENOSPC, as BEFORE does.
// The parts are written through a mapping (write_part), so the read probes add no write(2); their
// read(2) calls are a few per part (the parts fit one buffer). The enospc probe adds one failed
// write(2) for every variant (BEFORE's first frame, AFTER's one flush of 64 KiB).
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

// The error by its errno name (ENOSPC): no path, no locale.
std::string errno_name(int err) {
  const char* name = ::strerrorname_np(err);
  return name ? name : "errno " + std::to_string(err);
}

void probe_enospc(const fs::path& dir, Params q, const Spooler& spool, Emit& emit) {
  q.files = 1;  // upload-0.spool only
  q.frames = 4;
  fs::create_symlink("/dev/full", dir / "upload-0.spool");
  const std::string what = "probe enospc, upload-0.spool a symlink to /dev/full: ";
  try {
    const WriteResult r = spool(dir, q);
    std::string answered;
    for (const auto& l : r.lines) answered += " [" + l + "]";
    emit.line(what + "no error, " + std::to_string(r.bytes) + " bytes answered" + answered);
  } catch (const IoError& e) {
    emit.line(what + "failed at " + e.step + ": " + errno_name(e.err));
  }
}

}  // namespace

void run_probes(const fs::path& workdir, const Params& p, std::size_t read_buffer, const Spooler* spool,
                perfgate::OutputLog& out, perfgate::Digest& work) {
  Emit emit{out, work};
  const fs::path root = workdir / "probes";
  fs::remove_all(root);
  for (const char* sub : {"fresh", "missing", "isdir", "enospc"}) fs::create_directories(root / sub);
  probe_fresh(root / "fresh", p, read_buffer, emit);

  write_part(part_path(root / "missing", 0), kProbeBytes, 1004);  // part-001.bin never written
  probe_error("part-001 missing", root / "missing", p, read_buffer, emit);
  write_part(part_path(root / "isdir", 0), kProbeBytes, 1005);
  fs::create_directory(part_path(root / "isdir", 1));  // a directory where part-001.bin should be
  probe_error("part-001 a directory", root / "isdir", p, read_buffer, emit);
  if (spool) probe_enospc(root / "enospc", p, *spool, emit);
  fs::remove_all(root);  // removes the symlink, never /dev/full
}

}  // namespace upload_spool
