// The agreement pass's judgement: each request answered by both servers (twice each, to learn
// the noise), classified field by field, and split into the requests that may be timed and
// the ones dropped — each with the field paths that own it. Pure: answers in, verdicts out
// (fetching them is agreement_pass.hpp's job).
//
// The noise rule is Diffy's: a field that differs between the two servers on no more requests
// than it differs between two answers of one server (a clock, a per-process id) is noise, not
// a disagreement. Status, TotalRecordCount and len(Items) must match whatever the noise.
// "Not doing the work" — an empty array where the other side has items, or a body under a
// quarter of the other's — drops the request whatever the noise, and is named as such.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parity/json_diff.hpp"

namespace perfgate::parity {

struct Answer {
  int status = 0;  // 0: no answer (the error says why)
  std::string body, error;
  std::optional<long long> statements;  // the X-Perfgate-Statements header, when sent
  std::optional<long long> executed;    // what its server's libsqlite3 ran for it, when counted (statement_counter.hpp)
};

// One request's two answers: what differs, what must match and does not, what looks hollow.
struct AnswerDiff {
  JsonDiff diff;
  std::vector<std::string> must_match;  // "status", "TotalRecordCount", "len(Items)"
  std::vector<std::string> hollow;      // "B: Items: empty on B, 12 items on A", "B: body 31 B, A's 9,120 B"
};
AnswerDiff compare_answers(const Answer& a, const Answer& b, const VolatileKeys& keys, const Sides& sides = {});

// The four answers of one request: A, A again (a second answer or a second instance), B, B again.
struct Quad {
  std::string path;
  Answer a, a2, b, b2;
};

struct FieldNoise {
  std::uint64_t across = 0, within_a = 0, within_b = 0;  // requests where the field differed
  bool blamed() const { return across > std::max(within_a, within_b); }
};

struct RequestVerdict {
  std::string path;
  bool agreed = false;
  std::vector<std::string> fields;  // blamed field paths and must-match names that differed
  std::vector<std::string> hollow;
  std::uint64_t leaves = 0;
  int status_a = 0, status_b = 0;
  std::uint64_t bytes_a = 0, bytes_b = 0;
  std::optional<long long> statements_a, statements_b;
  std::string example;  // the first blamed difference, as text
};

struct Agreement {
  std::vector<RequestVerdict> requests;
  std::map<std::string, FieldNoise> fields;
  std::uint64_t leaves_agreeing = 0;  // compared in the requests that agreed: 0 means nothing was compared
  std::vector<std::string> agreeing_paths() const;
  std::size_t dropped() const;
  std::size_t hollow() const;
  double dropped_share() const;
  nlohmann::json to_json() const;
};

Agreement judge(const std::vector<Quad>& quads, const VolatileKeys& keys, const Sides& sides = {});

}  // namespace perfgate::parity
