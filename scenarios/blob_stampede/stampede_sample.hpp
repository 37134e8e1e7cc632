// blob_stampede's two commands, for the SDK's dispatch (main.cpp).
#pragma once

#include <perfgate/sample.hpp>

namespace blob_stampede {
// Writes the blob (its SHA-256 is its name) and blob.json into the fixture directory.
perfgate::json seed(const perfgate::Invocation& inv);
// One stampede of cold readers, then a warm read; the report of the sample.
perfgate::Report run(const perfgate::Invocation& inv);
}  // namespace blob_stampede
