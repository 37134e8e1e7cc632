// Upload spool I/O (seed 000 [6][7]): the assembly read pass over completed chunk files and
// the chunk-spool write of HTTP frames. BEFORE and AFTER differ only in buffer sizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfgate/sample.hpp"

namespace upload_spool {

namespace fs = std::filesystem;

struct Params {
  int parts = 16;  // part files of the assembly read
  int part_mib = 10;
  int files = 20;    // spooled uploads
  int frames = 640;  // frames per upload
  int frame_kib = 16;
  bool corrupt_one_frame = false;  // test-only: flips a byte of one frame, so the gate must trip
  // The manifest's lies (each does less than BEFORE): "short-read" leaves the last buffer of
  // every part unread, "drop-last-frame" never writes the last frame of an upload,
  // "skip-spool-write" digests the frames in memory and writes no spool file at all (same
  // output, no write(2): caught by the exact count of syscw), "swap-last-frames" writes an
  // upload's last two frames in each other's place (same bytes, same calls, wrong order),
  // "no-final-flush" closes each upload without writing the buffered writer's last buffer,
  // "digest-sidecar" keeps each part's digest in a sidecar keyed by path and size and never reads
  // a part it has seen again, "eof-on-error" skips a part it cannot open and takes a failed
  // read(2) for the end of the part, "ignore-enospc" drops a failed write(2)'s error (and its
  // bytes) in the buffered writer and reports the upload as spooled, "phantom-spool" writes only
  // each upload's first buffer and answers the upload from the frames in memory.
  std::string lie;
};

// An I/O call that failed: the step ("open", "read", "create", "write", "map") and its errno, so
// a probe can record where a variant failed without the path.
struct IoError : std::runtime_error {
  IoError(const std::string& step, const fs::path& p, int err);
  std::string step;
  int err;
};

// The i-th part's file in `dir` (part-%03d.bin).
fs::path part_path(const fs::path& dir, int i);
// Writes `bytes` deterministic bytes from `seed` into `file` through a shared mapping (no write(2),
// so the write syscalls the harness counts stay the spool's).
void write_part(const fs::path& file, std::size_t bytes, std::uint64_t seed);

Params params_from(const perfgate::Invocation& inv);

// The fixture: `parts` files of `part_mib` MiB of deterministic bytes, and the frame source.
void seed(const fs::path& dir, const Params& p);

struct ReadResult {
  std::uint64_t bytes = 0, calls = 0;
  std::string digest;
  std::vector<std::string> lines;  // one per part: name, bytes, digest
};
struct WriteResult {
  std::uint64_t bytes = 0, calls = 0;
  std::string digest;              // of the spooled files' content, read back through mmap (no read(2) counted)
  std::vector<std::string> lines;  // one per upload: name, bytes, digest
};

// Streams every part through a read buffer of `buffer_bytes` (one read(2) per fill).
ReadResult read_parts(const fs::path& fixture, const Params& p, std::size_t buffer_bytes);

// The frames of upload `file`: `frames` frames of `frame_kib` KiB, deterministic.
class FrameSource {
 public:
  explicit FrameSource(const Params& p);
  const char* frame(int file, int index);  // valid until the next call
  std::size_t frame_bytes() const { return frame_.size(); }

 private:
  std::vector<char> body_, frame_;
  std::size_t frame_count_;
  bool corrupt_;
};

// Spools every upload into `dir`; how depends on the variant (before.cpp, after.cpp).
WriteResult spool_bare(const fs::path& dir, const Params& p);                          // BEFORE
WriteResult spool_buffered(const fs::path& dir, const Params& p, std::size_t buffer);  // AFTER

// Shared by both writers: the digest of what landed on disk, then the files are removed.
void digest_and_remove(const fs::path& file, perfgate::Digest& d, WriteResult& r);

// The variant's writer (spool_bare or spool_buffered with its buffer), spooling into a folder.
using Spooler = std::function<WriteResult(const fs::path& dir, const Params& p)>;

// The untimed probes after the timed passes (probes.cpp): their lines go to `out` and `work`.
// `spool` is the variant's writer, or null for a read-only variant (no spool probe then).
void run_probes(const fs::path& workdir, const Params& p, std::size_t read_buffer, const Spooler* spool,
                perfgate::OutputLog& out, perfgate::Digest& work);

}  // namespace upload_spool
