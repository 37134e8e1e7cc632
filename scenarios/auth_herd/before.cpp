// BEFORE (seed 000 [4], verify_basic_auth): on a cache miss each caller runs the full slow
// path itself — an Argon2id verification apiece. A DAV client's 4-8 parallel connections
// arriving on a cold (or just expired) cache make 4-8 verifications of the same credentials.
#include "auth_cache.hpp"

namespace auth_herd {
namespace {

class PerCallerAuthenticator final : public Authenticator {
 public:
  using Authenticator::Authenticator;

  std::optional<UserId> authenticate(std::string_view user, std::string_view password) override {
    const CacheKey key = cache_key(user, password);
    if (auto hit = cache_.get(key)) return hit;
    return verify_and_cache(key, user, password);  // every missing caller verifies
  }
};

}  // namespace

std::unique_ptr<Authenticator> make_before(const UserStore& users, Verifier& verifier, CredentialCache& cache) {
  return std::make_unique<PerCallerAuthenticator>(users, verifier, cache);
}

}  // namespace auth_herd
