// The key-path fingerprint of a body: a hash of which field paths it holds (json_diff.hpp's
// key_paths), not of their values. Values may change while a server is timed (a play count);
// the shape of an honest answer does not — a body that went hollow after the agreement pass
// (lists emptied, fields dropped) gets another fingerprint.
#pragma once

#include <string>

namespace perfgate::parity {

// XXH3-64 hex of the body's key paths; a body that is not JSON is fingerprinted by "not
// JSON" and the power of two its size falls under.
std::string fingerprint(const std::string& body);

}  // namespace perfgate::parity
