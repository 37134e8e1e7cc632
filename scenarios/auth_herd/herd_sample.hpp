// auth_herd's two commands, for the SDK's dispatch (main.cpp).
#pragma once

#include <perfgate/sample.hpp>

namespace auth_herd {
// Writes the users (Argon2id-hashed) and the herd's credentials into the fixture directory.
perfgate::json seed(const perfgate::Invocation& inv);
// One herd on a cold cache, then the warm hits; the report of the sample.
perfgate::Report run(const perfgate::Invocation& inv);
}  // namespace auth_herd
