// The content the scenario uploads: `count` chunks of `bytes` each, filled from a fixed PRNG
// (the same bytes on every machine), each named by the SHA-256 of its bytes (content
// addressing: the name is known before any request, by the deduplication layer).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace s3_put {

struct Chunk {
  std::string name;  // lowercase hex SHA-256 of `bytes`
  std::string bytes;
};

std::vector<Chunk> make_chunks(std::size_t count, std::size_t bytes);
std::string sha256_hex(const std::string& bytes);

}  // namespace s3_put
