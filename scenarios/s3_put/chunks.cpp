#include "chunks.hpp"

#include <openssl/evp.h>

#include <cstdint>
#include <cstring>

namespace s3_put {

std::string sha256_hex(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) out += {hex[md[i] >> 4], hex[md[i] & 15]};
  return out;
}

std::vector<Chunk> make_chunks(std::size_t count, std::size_t bytes) {
  std::vector<Chunk> chunks(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t s = 0x5eed0000ULL + i;  // splitmix64, one stream per chunk
    std::string& b = chunks[i].bytes;
    b.resize(bytes);
    for (std::size_t off = 0; off < bytes; off += 8) {
      std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      std::memcpy(&b[off], &z, std::min<std::size_t>(8, bytes - off));
    }
    chunks[i].name = sha256_hex(b);
  }
  return chunks;
}

}  // namespace s3_put
