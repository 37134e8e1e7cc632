// Fetching the agreement pass's answers: every request to A and B, and a second time to each
// (to a second instance when one was started, else the same server again) for the noise.
#pragma once

#include <string>
#include <vector>

#include "parity/agreement.hpp"
#include "parity/http_client.hpp"

namespace perfgate::parity {

class SqliteCounter;

struct Endpoints {
  BaseUrl a, a2, b, b2;  // a2 == a and b2 == b: the noise is learnt from second answers
  // Each server's statement counter, when its statements are counted outside: read around
  // every request it answers (one request at a time, so the difference is that request's).
  const SqliteCounter *counted_a = nullptr, *counted_a2 = nullptr, *counted_b = nullptr, *counted_b2 = nullptr;
};

std::vector<Quad> fetch_quads(const Endpoints& e, const std::vector<std::string>& paths, double timeout_s = 30);

// The request set of a parity run: RequestSet's file format (one "/path?query" a line, '#'
// comments). Throws UsageError naming the file and line when it is empty or a request carries
// an id (32 hex digits): ids differ between two libraries, so a set with ids compares nothing.
std::vector<std::string> read_request_set(const std::string& file);

}  // namespace perfgate::parity
