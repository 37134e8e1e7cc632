// upload_spool's premise, function by function: the read pass reads the same bytes whatever its
// buffer (only the number of read(2) calls changes), BEFORE's bare writes and AFTER's buffered
// writer leave byte-identical spool files (only the write(2) count changes), each declared
// lie changes the digest — or, for skip-spool-write, only the write count of the timed spool —
// and both writers fail at write with ENOSPC on a spool file that is /dev/full, where the lies
// ignore-enospc and skip-spool-write answer (the untimed probe that catches them, probes.cpp).
#include "spool.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <cmath>

namespace {

using namespace upload_spool;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "upload-spool-test-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() { fs::remove_all(path); }
};

Params small() {
  Params p;
  p.parts = 3;
  p.part_mib = 1;
  p.files = 3;
  p.frames = 64;
  p.frame_kib = 16;
  return p;
}

class Spool : public ::testing::Test {
 protected:
  void SetUp() override { seed(fixture.path, p); }
  Params p = small();
  TempDir fixture;
};

TEST_F(Spool, ReadPassReadsTheSameBytesWhateverTheBuffer) {
  const auto reference = read_parts(fixture.path, p, 64 << 10);
  EXPECT_EQ(reference.bytes, static_cast<std::uint64_t>(p.parts) << 20);
  ASSERT_EQ(reference.lines.size(), static_cast<std::size_t>(p.parts));
  for (std::size_t buffer : {4096u + 7u, 256u << 10, 512u << 10, 1u << 20, 3u << 20}) {
    const auto r = read_parts(fixture.path, p, buffer);
    EXPECT_EQ(r.digest, reference.digest) << buffer;
    EXPECT_EQ(r.lines, reference.lines) << buffer;
    // One read(2) per fill and one that returns 0 at the end of each part.
    const auto fills = static_cast<std::uint64_t>(std::ceil(double(1 << 20) / double(buffer)));
    EXPECT_EQ(r.calls, p.parts * (fills + 1)) << buffer;
  }
}

TEST_F(Spool, BareAndBufferedWritersSpoolTheSameBytes) {
  TempDir bare_dir, buffered_dir;
  const auto bare = spool_bare(bare_dir.path, p);
  const auto buffered = spool_buffered(buffered_dir.path, p, 512 << 10);
  EXPECT_EQ(bare.digest, buffered.digest);
  EXPECT_EQ(bare.lines, buffered.lines);
  EXPECT_EQ(bare.bytes, static_cast<std::uint64_t>(p.files) * p.frames * p.frame_kib * 1024);
  EXPECT_EQ(buffered.bytes, bare.bytes);
  EXPECT_EQ(bare.calls, static_cast<std::uint64_t>(p.files * p.frames));  // one write(2) per frame
  EXPECT_EQ(buffered.calls, static_cast<std::uint64_t>(p.files * 2));     // 1 MiB per upload, 512 KiB per write
  EXPECT_TRUE(fs::is_empty(bare_dir.path));                               // read back, then removed
  EXPECT_TRUE(fs::is_empty(buffered_dir.path));
}

TEST_F(Spool, EveryBufferSizeSpoolsTheSameBytes) {
  TempDir dir;
  const auto reference = spool_bare(dir.path, p);
  // Smaller than a frame (frames bypass the buffer), not a multiple of a frame, exactly one frame,
  // larger than a whole upload (one write at the flush).
  for (std::size_t buffer : {8u << 10, 20u << 10, 16u << 10, 2u << 20}) {
    const auto r = spool_buffered(dir.path, p, buffer);
    EXPECT_EQ(r.digest, reference.digest) << buffer;
    EXPECT_EQ(r.bytes, reference.bytes) << buffer;
  }
  EXPECT_EQ(spool_buffered(dir.path, p, 2u << 20).calls, static_cast<std::uint64_t>(p.files));
}

TEST_F(Spool, OneFlippedByteChangesTheSpoolDigest) {
  TempDir dir;
  Params corrupt = p;
  corrupt.corrupt_one_frame = true;
  EXPECT_NE(spool_buffered(dir.path, corrupt, 512 << 10).digest, spool_bare(dir.path, p).digest);
}

TEST_F(Spool, LiesDoLessAndTheDigestOrTheWriteCountShowsIt) {
  TempDir dir;
  Params lie = p;
  lie.lie = "short-read";
  const auto honest_read = read_parts(fixture.path, p, 512 << 10);
  const auto short_read = read_parts(fixture.path, lie, 512 << 10);
  EXPECT_LT(short_read.bytes, honest_read.bytes);
  EXPECT_NE(short_read.digest, honest_read.digest);

  const auto honest = spool_bare(dir.path, p);
  lie.lie = "drop-last-frame";
  const auto dropped = spool_buffered(dir.path, lie, 512 << 10);
  EXPECT_LT(dropped.bytes, honest.bytes);
  EXPECT_NE(dropped.digest, honest.digest);

  lie.lie = "no-final-flush";  // each upload's last buffer never written
  const auto unflushed = spool_buffered(dir.path, lie, 512 << 10);
  EXPECT_LT(unflushed.bytes, honest.bytes);
  EXPECT_NE(unflushed.digest, honest.digest);

  lie.lie = "swap-last-frames";  // the same bytes and calls, in another order
  const auto swapped = spool_buffered(dir.path, lie, 512 << 10);
  EXPECT_EQ(swapped.bytes, honest.bytes);
  EXPECT_NE(swapped.digest, honest.digest);

  lie.lie = "skip-spool-write";  // the same digest and lines: only a count of write(2) can tell
  const auto skipped = spool_buffered(dir.path, lie, 512 << 10);
  EXPECT_EQ(skipped.digest, honest.digest);
  EXPECT_EQ(skipped.lines, honest.lines);
  EXPECT_EQ(skipped.calls, 0u);
  EXPECT_TRUE(fs::is_empty(dir.path));
}

// The step and errno a writer fails with on a spool file that is /dev/full, or "answered".
std::string full_device(const Spooler& spool, const Params& q) {
  TempDir dir;
  fs::create_symlink("/dev/full", dir.path / "upload-0.spool");
  try {
    spool(dir.path, q);
    return "answered";
  } catch (const IoError& e) {
    return e.step + " " + std::to_string(e.err);
  }
}

TEST_F(Spool, BothWritersFailAtWriteOnAFullDeviceAndTheLiesAnswer) {
  const Spooler bare = [](const fs::path& d, const Params& q) { return spool_bare(d, q); };
  const Spooler buffered = [](const fs::path& d, const Params& q) { return spool_buffered(d, q, 512 << 10); };
  const std::string enospc = "write " + std::to_string(ENOSPC);
  EXPECT_EQ(full_device(bare, p), enospc);
  EXPECT_EQ(full_device(buffered, p), enospc);
  Params lie = p;
  for (const char* name : {"ignore-enospc", "skip-spool-write"}) {
    lie.lie = name;
    EXPECT_EQ(full_device(buffered, lie), "answered") << name;
  }
  ASSERT_TRUE(fs::exists("/dev/full"));  // the symlinks went, the device stays
}

}  // namespace
