// perfgate::load::ResponseBook — every answer of a service scenario, checked as it arrives.
//
//   ResponseBook book;
//   book.begin("before", 1, "window");
//   book.answer("/a", 17, 200, digest_of_body, body);   // false: it differed (failure() says how)
//
// A service's answers are its output: a cache hit must be byte for byte the miss it replays,
// and AFTER must answer what BEFORE answered. So, per path:
//   - within a variant, every answer (status, the headers that carry meaning for the body —
//     Content-Type, Content-Encoding, Content-Language, Content-Range, Location, Vary — and body,
//     warm-up and measured window, every round) must equal the variant's first answer of that path;
//   - the first answer of each variant must equal the first answer any variant gave.
// A transport error (reset, refused, malformed) is an answer with status 0: where another
// answer was a 2xx, it differs. A timeout is no answer (a performance matter) and is only
// counted.
//
// Memory stays bounded by the number of paths: per (variant, path) a digest, per path one
// body (the very first, for naming the first differing byte), within `keep_bytes` in total.
// The first failure is kept; later answers are counted, not checked.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace perfgate::load {

// XXH3-128 of a body (as LoadResult::body_digest's hex spells it: high, then low).
struct BodyDigest {
  std::uint64_t high = 0, low = 0;
  bool operator==(const BodyDigest& o) const { return high == o.high && low == o.low; }
};
// Lower-case hex, high 64 bits then low: the same text as perfgate::Digest::hex().
std::string to_hex(const BodyDigest& d);

class ResponseBook {
 public:
  explicit ResponseBook(std::size_t keep_bytes = std::size_t{64} << 20);
  ResponseBook(const ResponseBook&) = delete;  // current_ points into itself
  ResponseBook& operator=(const ResponseBook&) = delete;

  // Names the answers that follow in a failure: variant, round, phase ("warm-up", "window").
  void begin(const std::string& variant, int round, const std::string& phase);
  // One complete response to the `request`-th request of the current load run; `headers`: the
  // ones that carry meaning for the body ("content-type: ...\n", BodyParser::meaningful_headers).
  bool answer(const std::string& path, std::uint64_t request, int status, BodyDigest digest, std::string_view body,
              std::string_view headers = {});
  // A request that got no response because the connection failed (`what`: the error).
  bool transport_error(const std::string& path, std::uint64_t request, const std::string& what);
  void timeout() { ++timeouts_; }
  // A divergence found elsewhere (a server's own "equivalent": false): the book's failure.
  void report_divergence(const std::string& message) {
    if (!failure_) failure_ = message;
  }

  const std::optional<std::string>& failure() const { return failure_; }
  std::uint64_t compared() const { return compared_; }  // answers set beside an earlier one
  std::uint64_t answers() const { return answers_; }
  std::size_t paths() const { return first_.size(); }
  // "N answers of M paths compared ...": what was checked, for the gate's detail.
  std::string summary() const;

 private:
  struct Seen {
    int status = 0;
    BodyDigest digest;
    std::uint64_t headers_hash = 0;  // XXH3-64 of the meaningful headers
    std::string headers;             // and their text (kept with a first answer, for the message)
    std::uint64_t size = 0;
    std::string variant, phase, error;
    int round = 0;
    std::uint64_t request = 0;
    std::optional<std::string> body;  // kept for the very first answer of a path only
  };
  bool check(const std::string& path, Seen now, std::string_view body, std::string_view headers);
  std::string describe(const Seen& s) const;

  std::size_t keep_bytes_, kept_bytes_ = 0;
  std::string variant_, phase_;
  int round_ = 0;
  std::unordered_map<std::string, Seen> first_;  // path → first answer of any variant
  std::map<std::string, std::unordered_map<std::string, Seen>> first_of_variant_;  // variant → path → first answer
  std::unordered_map<std::string, Seen>* current_;                                 // first_of_variant_[variant_]
  std::uint64_t answers_ = 0, timeouts_ = 0, compared_ = 0;
  std::optional<std::string> failure_;
};

// "first differing byte at offset 12: 0x61 vs 0x62" (or "... (end of body) vs 0x62").
std::string first_differing_byte(std::string_view a, std::string_view b);

}  // namespace perfgate::load
