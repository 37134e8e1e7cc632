// One sample of search_cache: fill the cache, time warm get()s, re-ask every query.
#pragma once

#include <perfgate/sample.hpp>

namespace search_cache {

perfgate::Report run(const perfgate::Invocation& inv);

}  // namespace search_cache
