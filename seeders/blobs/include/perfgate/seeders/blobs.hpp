// Deterministic blobs for file-based scenarios, named by their content (SHA-256, hex).
//
// The bytes come from xoshiro256** seeded through splitmix64 — both fully specified, so a
// (seed, size) pair gives the same bytes on every machine and compiler (unlike the
// distributions of <random>). The data is incompressible, like real media blobs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace perfgate::seeders {

// A deterministic stream of pseudo-random bytes.
class ByteStream {
 public:
  explicit ByteStream(std::uint64_t seed);
  void fill(char* out, std::size_t n);
  std::uint64_t next();

 private:
  std::uint64_t s_[4];
};

// Streaming SHA-256 (OpenSSL EVP); the content address of a blob.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, std::size_t n);
  void update(std::string_view s) { update(s.data(), s.size()); }
  std::string hex();  // finishes the digest; call once

 private:
  void* ctx_;  // EVP_MD_CTX*
};

std::string sha256_hex(std::string_view data);
// SHA-256 of a file's bytes; throws naming the file when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

struct BlobInfo {
  std::string sha256;  // hex; also the file name
  std::uint64_t size = 0;
  std::filesystem::path path;
};

// Writes `size` deterministic bytes of `seed` to dir/<sha256> and returns where and what.
BlobInfo write_blob(const std::filesystem::path& dir, std::uint64_t size, std::uint64_t seed);

}  // namespace perfgate::seeders
