#include "load/response_book.hpp"

#include <xxhash.h>

#include <cstdio>

namespace perfgate::load {

namespace {

std::string byte_text(std::string_view s, std::size_t i) {
  if (i >= s.size()) return "(end of body)";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", static_cast<unsigned char>(s[i]));
  return buf;
}

// Headers as one line for a message: "content-type: a; vary: b", or "(none)".
std::string text_of(std::string headers) {
  if (headers.empty()) return "(none)";
  if (headers.back() == '\n') headers.pop_back();
  for (std::size_t at; (at = headers.find('\n')) != std::string::npos;) headers.replace(at, 1, "; ");
  return headers;
}

}  // namespace

std::string to_hex(const BodyDigest& d) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(d.high),
                static_cast<unsigned long long>(d.low));
  return buf;
}

std::string first_differing_byte(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  const std::size_t n = std::min(a.size(), b.size());
  while (i < n && a[i] == b[i]) ++i;
  if (i == n && a.size() == b.size()) return "bodies equal";
  return "first differing byte at offset " + std::to_string(i) + ": " + byte_text(a, i) + " vs " + byte_text(b, i);
}

ResponseBook::ResponseBook(std::size_t keep_bytes) : keep_bytes_(keep_bytes), current_(&first_of_variant_[""]) {}

void ResponseBook::begin(const std::string& variant, int round, const std::string& phase) {
  variant_ = variant;
  round_ = round;
  phase_ = phase;
  current_ = &first_of_variant_[variant];
}

bool ResponseBook::answer(const std::string& path, std::uint64_t request, int status, BodyDigest digest,
                          std::string_view body, std::string_view headers) {
  Seen now;
  now.status = status;
  now.digest = digest;
  now.headers_hash = XXH3_64bits(headers.data(), headers.size());
  now.size = body.size();
  now.request = request;
  return check(path, std::move(now), body, headers);
}

bool ResponseBook::transport_error(const std::string& path, std::uint64_t request, const std::string& what) {
  Seen now;
  now.request = request;
  now.error = what.empty() ? "a transport error" : what;
  return check(path, std::move(now), {}, {});
}

std::string ResponseBook::describe(const Seen& s) const {
  const std::string who = s.variant + " (round " + std::to_string(s.round) + ", " + s.phase + " request #" +
                          std::to_string(s.request) + ")";
  if (s.status == 0) return who + " got no answer: " + s.error;
  return who + " got status " + std::to_string(s.status) + " with a " + std::to_string(s.size) + "-byte body";
}

bool ResponseBook::check(const std::string& path, Seen now, std::string_view body, std::string_view headers) {
  ++answers_;
  if (failure_) return false;
  auto& mine = *current_;
  auto it = mine.find(path);
  auto same = [&](const Seen& a) {
    return a.status == now.status && a.digest == now.digest && a.headers_hash == now.headers_hash;
  };
  // The common case, a later answer equal to the first, touches no string but the path.
  if (it != mine.end() && same(it->second)) {
    ++compared_;
    return true;
  }
  now.headers = std::string(headers);
  now.variant = variant_;
  now.round = round_;
  now.phase = phase_;
  const Seen* reference = nullptr;
  std::string relation;
  if (it == mine.end()) {
    auto [ref, fresh] = first_.try_emplace(path);
    if (fresh) {
      ref->second = now;
      if (now.status != 0 && kept_bytes_ + body.size() <= keep_bytes_) {
        ref->second.body = std::string(body);
        kept_bytes_ += body.size();
      }
      mine.emplace(path, std::move(now));
      return true;
    }
    mine.emplace(path, now);
    ++compared_;
    if (same(ref->second)) return true;
    reference = &ref->second;
    relation = "the first answer of any variant: ";
  } else {
    ++compared_;
    reference = &it->second;
    relation = "its own first answer: ";
  }
  // The first body of the path is the reference's body too: the variant's first answer
  // equalled it, or the failure would have been reported then.
  const Seen& first = first_.at(path);
  std::string where;
  if (now.status == 0 || reference->status == 0)
    where = "";
  else if (reference->status == now.status && reference->digest == now.digest)
    where = "; the bodies are equal, the headers differ: '" + text_of(reference->headers) + "' vs '" +
            text_of(now.headers) + "' (first answer vs this one)";
  else if (first.body)
    where = "; " + first_differing_byte(*first.body, body) + " (first answer vs this one)";
  else
    where = "; the first body was not kept (memory cap), digests differ";
  failure_ = "equivalence gate failed: GET " + path + ": " + describe(now) + ", but " + relation +
             describe(*reference) + where;
  return false;
}

std::string ResponseBook::summary() const {
  std::size_t variants = 0;
  for (const auto& [_, paths] : first_of_variant_) variants += paths.empty() ? 0 : 1;
  return std::to_string(answers_) + " answers of " + std::to_string(first_.size()) + " paths checked (status, " +
         "meaningful headers and body, warm-up and window, " + std::to_string(variants) + " variants; " +
         std::to_string(compared_) +
         " compared with a first answer): every answer equal to its variant's first answer of that path, every "
         "variant's first answer equal to the first of any variant; " +
         std::to_string(timeouts_) + " timeouts not compared";
}

}  // namespace perfgate::load
