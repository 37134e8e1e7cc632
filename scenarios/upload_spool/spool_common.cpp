#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

#include "spool.hpp"

namespace upload_spool {
namespace {

// xorshift64*: fast, deterministic on every machine, good enough for incompressible bytes.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
};

void fill(std::vector<char>& buf, std::uint64_t seed) {
  Rng r{seed * 0x9E3779B97F4A7C15ULL + 1};
  for (std::size_t i = 0; i + 8 <= buf.size(); i += 8) {
    std::uint64_t v = r.next();
    std::memcpy(buf.data() + i, &v, 8);
  }
}

// `what` is "cannot <step>".
[[noreturn]] void fail(const std::string& what, const fs::path& p) {
  const int err = errno;
  throw IoError(what.substr(7), p, err);
}

// The lie "digest-sidecar": each part's digest kept in a file in the temp directory, keyed by the
// part's path and size, and a part found there answered from it without a read.
class DigestSidecar {
 public:
  explicit DigestSidecar(bool on) : on_(on), file_(on ? fs::temp_directory_path() / "upload_spool.part-digests" : "") {
    if (!on_) return;
    std::ifstream in(file_);
    for (std::string key, digest; std::getline(in, key, '\n') && std::getline(in, digest, '\n');) known_[key] = digest;
  }
  bool answer(int fd, const fs::path& f, perfgate::Digest& d, ReadResult& r) {
    if (!on_) return false;
    struct stat st {};
    ::fstat(fd, &st);
    const auto it = known_.find(f.string() + '\t' + std::to_string(st.st_size));
    if (it == known_.end()) return false;
    ::close(fd);
    d.field(it->second);
    r.bytes += static_cast<std::uint64_t>(st.st_size);
    r.lines.push_back(f.filename().string() + " " + std::to_string(st.st_size) + " " + it->second);
    return true;
  }
  void remember(const fs::path& f, std::uint64_t bytes, const std::string& digest) {
    if (!on_) return;
    known_[f.string() + '\t' + std::to_string(bytes)] = digest;
    std::ofstream(file_, std::ios::app) << f.string() << '\t' << bytes << '\n' << digest << '\n';
  }

 private:
  bool on_;
  fs::path file_;
  std::map<std::string, std::string> known_;
};

}  // namespace

IoError::IoError(const std::string& step_, const fs::path& p, int err_)
    : std::runtime_error("cannot " + step_ + " " + p.string() + ": " + std::strerror(err_)), step(step_), err(err_) {}

Params params_from(const perfgate::Invocation& inv) {
  Params p;
  p.parts = inv.param<int>("parts", p.parts);
  p.part_mib = inv.param<int>("part_mib", p.part_mib);
  p.files = inv.param<int>("files", p.files);
  p.frames = inv.param<int>("frames", p.frames);
  p.frame_kib = inv.param<int>("frame_kib", p.frame_kib);
  p.corrupt_one_frame = inv.has("test-corrupt-frame");
  p.lie = inv.lie;
  return p;
}

fs::path part_path(const fs::path& dir, int i) {
  char name[32];
  std::snprintf(name, sizeof name, "part-%03d.bin", i);
  return dir / name;
}

void seed(const fs::path& dir, const Params& p) {
  std::vector<char> buf(static_cast<std::size_t>(p.part_mib) << 20);
  for (int i = 0; i < p.parts; ++i) {
    fill(buf, static_cast<std::uint64_t>(i) + 1);
    fs::path f = part_path(dir, i);
    int fd = ::open(f.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) fail("cannot create", f);
    std::size_t off = 0;
    while (off < buf.size()) {
      ssize_t n = ::write(fd, buf.data() + off, buf.size() - off);
      if (n < 0) fail("cannot write", f);
      off += static_cast<std::size_t>(n);
    }
    ::close(fd);
  }
}

void write_part(const fs::path& file, std::size_t bytes, std::uint64_t seed) {
  std::vector<char> buf(bytes);
  fill(buf, seed);
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) fail("cannot create", file);
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) fail("cannot create", file);
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) fail("cannot map", file);
  std::memcpy(m, buf.data(), bytes);
  ::munmap(m, bytes);
  ::close(fd);
}

ReadResult read_parts(const fs::path& fixture, const Params& p, std::size_t buffer_bytes) {
  ReadResult r;
  perfgate::Digest d;
  std::vector<char> buf(buffer_bytes);
  DigestSidecar sidecar(p.lie == "digest-sidecar");
  for (int i = 0; i < p.parts; ++i) {
    fs::path f = part_path(fixture, i);
    int fd = ::open(f.c_str(), O_RDONLY);
    if (fd < 0 && p.lie == "eof-on-error") continue;  // the lie: a part it cannot open skipped
    if (fd < 0) fail("cannot open", f);
    if (sidecar.answer(fd, f, d, r)) continue;  // the lie "digest-sidecar": a part seen before, not read
    perfgate::Digest part;
    std::uint64_t part_bytes = 0, limit = UINT64_MAX;
    if (p.lie == "short-read") {
      struct stat st {};
      ::fstat(fd, &st);
      const auto size = static_cast<std::uint64_t>(st.st_size);
      limit = size > buffer_bytes ? size - buffer_bytes : 0;
    }
    while (part_bytes < limit) {
      ssize_t n = ::read(fd, buf.data(), buf.size());
      ++r.calls;
      if (n < 0 && p.lie == "eof-on-error") break;  // the lie: a failed read taken for the end
      if (n < 0) fail("cannot read", f);
      if (n == 0) break;
      d.update(buf.data(), static_cast<std::size_t>(n));
      part.update(buf.data(), static_cast<std::size_t>(n));
      part_bytes += static_cast<std::uint64_t>(n);
    }
    ::close(fd);
    r.bytes += part_bytes;
    r.lines.push_back(f.filename().string() + " " + std::to_string(part_bytes) + " " + part.hex());
    sidecar.remember(f, part_bytes, part.hex());
  }
  r.digest = d.hex();
  return r;
}

FrameSource::FrameSource(const Params& p)
    : body_(static_cast<std::size_t>(p.frames) * static_cast<std::size_t>(p.frame_kib) * 1024),
      frame_(static_cast<std::size_t>(p.frame_kib) * 1024),
      frame_count_(static_cast<std::size_t>(p.frames)),
      corrupt_(p.corrupt_one_frame) {
  fill(body_, 0xB0D1);
}

const char* FrameSource::frame(int file, int index) {
  std::memcpy(frame_.data(), body_.data() + static_cast<std::size_t>(index) * frame_.size(), frame_.size());
  // Stamp (upload, frame) so every upload's bytes differ and a misordered frame changes the digest.
  std::uint32_t stamp[2] = {static_cast<std::uint32_t>(file), static_cast<std::uint32_t>(index)};
  std::memcpy(frame_.data(), stamp, sizeof stamp);
  if (corrupt_ && file == 0 && index == 3) frame_[100] ^= 1;
  return frame_.data();
}

void digest_and_remove(const fs::path& file, perfgate::Digest& d, WriteResult& r) {
  int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) fail("cannot open", file);
  struct stat st {};
  ::fstat(fd, &st);
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > 0) {
    void* m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) fail("cannot map", file);
    const std::string_view content(static_cast<const char*>(m), size);
    d.field(content);
    r.lines.push_back(file.filename().string() + " " + std::to_string(size) + " " + perfgate::digest_of(content));
    ::munmap(m, size);
  }
  ::close(fd);
  r.bytes += size;
  ::unlink(file.c_str());
}

}  // namespace upload_spool
