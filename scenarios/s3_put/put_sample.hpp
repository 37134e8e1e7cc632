// One sample of s3_put: start the store, upload every chunk (timed), read the store back.
#pragma once

#include <perfgate/sample.hpp>

namespace s3_put {

perfgate::Report run(const perfgate::Invocation& inv);

}  // namespace s3_put
