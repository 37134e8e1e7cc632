#include "perfgate/seeders/blobs.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace perfgate::seeders {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

ByteStream::ByteStream(std::uint64_t seed) {
  for (auto& s : s_) s = splitmix64(seed);
}

std::uint64_t ByteStream::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

void ByteStream::fill(char* out, std::size_t n) {
  while (n >= 8) {
    const std::uint64_t v = next();
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xff);  // little-endian on every host
    out += 8;
    n -= 8;
  }
  if (n) {
    const std::uint64_t v = next();
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  }
}

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256::update(const void* data, std::size_t n) {
  if (EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, n) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
}

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), md, &len) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * len, '0');
  for (unsigned i = 0; i < len; ++i) {
    out[2 * i] = digits[md[i] >> 4];
    out[2 * i + 1] = digits[md[i] & 0xf];
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex();
}

std::string sha256_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path);
  Sha256 h;
  std::vector<char> buf(1 << 20);
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      fail("cannot read", path);
    }
    if (n == 0) break;
    h.update(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return h.hex();
}

BlobInfo write_blob(const std::filesystem::path& dir, std::uint64_t size, std::uint64_t seed) {
  std::filesystem::create_directories(dir);
  // Write under a temporary name first: the name is the content's hash, known at the end.
  const auto tmp = dir / (".seed-" + std::to_string(seed) + ".tmp");
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", tmp);
  ByteStream bytes(seed);
  Sha256 h;
  std::vector<char> buf(1 << 20);
  for (std::uint64_t left = size; left;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size()));
    bytes.fill(buf.data(), n);
    h.update(buf.data(), n);
    for (std::size_t off = 0; off < n;) {
      const ssize_t w = ::write(fd, buf.data() + off, n - off);
      if (w < 0) {
        if (errno == EINTR) continue;
        ::close(fd);
        fail("cannot write", tmp);
      }
      off += static_cast<std::size_t>(w);
    }
    left -= n;
  }
  if (::close(fd) != 0) fail("cannot close", tmp);
  BlobInfo info{h.hex(), size, {}};
  info.path = dir / info.sha256;
  std::filesystem::rename(tmp, info.path);
  return info;
}

}  // namespace perfgate::seeders
