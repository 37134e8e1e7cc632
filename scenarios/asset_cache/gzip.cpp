#include "gzip.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace asset_cache {

std::string gzip(std::string_view raw, int level) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(raw.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

std::string gzip_text_then_stored(std::string_view text, std::string_view blob, int level) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(text.size() + blob.size())) + 64, '\0');
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  int rc = deflate(&z, Z_BLOCK);
  // deflateParams ends the current block, so the blob starts a stored block of its own.
  if (rc == Z_OK) rc = deflateParams(&z, 0, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(blob.data()));
  z.avail_in = static_cast<uInt>(blob.size());
  if (rc == Z_OK) rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

Inflater::Inflater() {
  if (inflateInit2(&z_, 15 + 16) != Z_OK) throw std::runtime_error("inflateInit2 failed");
}

Inflater::~Inflater() { inflateEnd(&z_); }

std::string Inflater::inflate(std::string_view gz) {
  if (gz.size() < 18) throw std::runtime_error("gzip member too short");
  // ISIZE, the trailer's last 4 bytes: the inflated size mod 2^32 (our assets are small).
  const auto* t = reinterpret_cast<const unsigned char*>(gz.data() + gz.size() - 4);
  const std::uint32_t isize = t[0] | (t[1] << 8) | (t[2] << 16) | (static_cast<std::uint32_t>(t[3]) << 24);
  // Deflate cannot expand more than ~1032:1: a larger ISIZE means this is not our gzip.
  if (isize > gz.size() * 1032) throw std::runtime_error("corrupt gzip asset (impossible size)");
  std::string out(isize, '\0');
  inflateReset(&z_);
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z_.avail_in = static_cast<uInt>(gz.size());
  z_.next_out = reinterpret_cast<Bytef*>(out.data());
  z_.avail_out = static_cast<uInt>(out.size());
  const int rc = ::inflate(&z_, Z_FINISH);
  if (rc != Z_STREAM_END || z_.total_out != isize) throw std::runtime_error("corrupt gzip asset");
  return out;
}

bool accepts_gzip(std::string_view v) {
  bool gzip = false, star = false, gzip_refused = false;
  while (!v.empty()) {
    auto comma = v.find(',');
    std::string_view item = v.substr(0, comma);
    v = comma == std::string_view::npos ? std::string_view{} : v.substr(comma + 1);
    std::string_view name = item.substr(0, item.find(';'));
    auto trim = [](std::string_view s) {
      while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
      return s;
    };
    name = trim(name);
    bool zero = false;
    if (auto q = item.find(';'); q != std::string_view::npos) {
      std::string_view param = trim(item.substr(q + 1));
      if (param.size() > 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
        const std::string num(trim(param.substr(2)));
        try {
          zero = std::stod(num) <= 0.0;
        } catch (const std::exception&) {
          zero = true;
        }
      }
    }
    auto iequals = [](std::string_view a, std::string_view b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                                [](char x, char y) { return std::tolower(x) == std::tolower(y); });
    };
    if (iequals(name, "gzip") || iequals(name, "x-gzip"))
      (zero ? gzip_refused : gzip) = true;
    else if (name == "*" && !zero)
      star = true;
  }
  return gzip || (star && !gzip_refused);
}

std::string gunzip(std::string_view gz) {
  Inflater i;
  return i.inflate(gz);
}

}  // namespace asset_cache
