#include "gate/first_difference.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "common/printable_text.hpp"

namespace perfgate::gate {

namespace fs = std::filesystem;

namespace {

// Where two files first differ: the byte offset, its line (1-based) and where that line starts.
struct Divergence {
  std::uint64_t offset = 0, line = 1, line_start = 0;
};

std::optional<Divergence> find_divergence(std::ifstream& fa, std::ifstream& fb) {
  Divergence d;
  std::vector<char> ba(1 << 16), bb(1 << 16);
  for (;;) {
    fa.read(ba.data(), static_cast<std::streamsize>(ba.size()));
    fb.read(bb.data(), static_cast<std::streamsize>(bb.size()));
    const auto na = static_cast<std::size_t>(fa.gcount()), nb = static_cast<std::size_t>(fb.gcount());
    const std::size_t n = std::min(na, nb);
    for (std::size_t i = 0; i < n; ++i, ++d.offset) {
      if (ba[i] != bb[i]) return d;
      if (ba[i] == '\n') ++d.line, d.line_start = d.offset + 1;
    }
    if (na != nb) return d;
    if (na == 0) return std::nullopt;
  }
}

std::string read_at(const fs::path& file, std::uint64_t from, std::size_t count) {
  std::ifstream in(file, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(from));
  std::string bytes(count, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(count));
  bytes.resize(static_cast<std::size_t>(std::max<std::streamsize>(0, in.gcount())));
  return bytes;
}

// git's test of a binary file: a NUL among its first 8000 bytes.
bool has_nul_early(const fs::path& file) { return read_at(file, 0, 8000).find('\0') != std::string::npos; }

// Mostly not text: a third of the bytes or more need escaping to be shown.
bool mostly_escaped(const std::string& bytes) {
  const std::string shown = printable_text(bytes);
  std::size_t escapes = 0;
  for (std::size_t at = shown.find("\\x"); at != std::string::npos; at = shown.find("\\x", at + 2)) ++escapes;
  return !bytes.empty() && 3 * escapes >= bytes.size();
}

constexpr std::uint64_t kHead = 40, kBefore = 60, kShown = 200;

// The line around `d` in one file: its first 40 bytes (a row's kind and key), then up to 200
// bytes from 60 before the differing byte; none when the file has no such line.
struct LineWindow {
  std::optional<std::string> head, bytes;  // head: only when the window starts later in the line
  bool cut_after = false;
};

LineWindow line_around(const fs::path& file, const Divergence& d) {
  LineWindow w;
  const std::uint64_t from = d.offset > d.line_start + kHead + kBefore ? d.offset - kBefore : d.line_start;
  std::string bytes = read_at(file, from, kShown + 1);
  if (bytes.empty() && from == d.line_start) return w;
  if (const auto nl = bytes.find('\n'); nl != std::string::npos)
    bytes.resize(nl);
  else if (bytes.size() > kShown)
    bytes.resize(kShown), w.cut_after = true;
  if (from > d.line_start) w.head = read_at(file, d.line_start, kHead);
  w.bytes = std::move(bytes);
  return w;
}

std::string quoted(const LineWindow& w) {
  if (!w.bytes) return "(end of output)";
  return "'" + (w.head ? printable_text(*w.head) + "..." : std::string()) + printable_text(*w.bytes) +
         (w.cut_after ? "..." : "") + "'";
}

std::string hex(const std::string& bytes) {
  std::string out;
  char buf[4];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i && i % 4 == 0) out += ' ';
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(bytes[i]));
    out += buf;
  }
  return out.empty() ? "(end of output)" : out;
}

std::string byte_at(const std::string& window, std::uint64_t index) {
  if (index >= window.size()) return "(end of output)";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(window[index]));
  return buf;
}

}  // namespace

std::optional<std::string> first_difference(const fs::path& a, const fs::path& b, const std::string& a_name,
                                            const std::string& b_name) {
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  if (!fa || !fb) return std::nullopt;
  const auto d = find_divergence(fa, fb);
  if (!d) return std::nullopt;
  const LineWindow la = line_around(a, *d), lb = line_around(b, *d);
  const bool binary = has_nul_early(a) || has_nul_early(b) || (la.bytes && mostly_escaped(*la.bytes)) ||
                      (lb.bytes && mostly_escaped(*lb.bytes));
  if (!binary)
    return "first differing line " + std::to_string(d->line) + " (byte " + std::to_string(d->offset) + "): " + a_name +
           " " + quoted(la) + ", " + b_name + " " + quoted(lb);
  // 24 bytes from 8 before, in words of four: enough to see a header field or a length change.
  const std::uint64_t from = d->offset > 8 ? d->offset - 8 : 0;
  const std::string wa = read_at(a, from, 24), wb = read_at(b, from, 24);
  return "first differing byte at offset " + std::to_string(d->offset) + " (binary output): " + a_name + " " +
         byte_at(wa, d->offset - from) + ", " + b_name + " " + byte_at(wb, d->offset - from) + "; bytes " +
         std::to_string(from) + "-" + std::to_string(from + std::max(wa.size(), wb.size()) - 1) + ": " + a_name + " " +
         hex(wa) + ", " + b_name + " " + hex(wb);
}

}  // namespace perfgate::gate
