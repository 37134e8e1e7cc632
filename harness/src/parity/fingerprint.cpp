#include "parity/fingerprint.hpp"

#include <xxhash.h>

#include <bit>
#include <cstdio>

#include "parity/json_diff.hpp"

namespace perfgate::parity {

std::string fingerprint(const std::string& body) {
  std::string shape;
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) {
    shape = "not JSON, under 2^" + std::to_string(std::bit_width(body.size())) + " bytes";
  } else {
    for (const auto& p : key_paths(j)) shape += p + "\n";
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(shape.data(), shape.size())));
  return hex;
}

}  // namespace perfgate::parity
