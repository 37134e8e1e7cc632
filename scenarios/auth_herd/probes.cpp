#include "probes.hpp"

#include <cctype>

namespace auth_herd {

std::string answer_text(const std::optional<UserId>& a) { return a ? "user_id=" + std::to_string(*a) : "denied"; }

namespace {
std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

Probes::Probes(Authenticator& auth, UserStore& store, const nlohmann::json& herd)
    : auth_(auth),
      store_(store),
      herd_user_(herd.at("user")),
      herd_password_(herd.at("password")),
      probe_user_(herd.at("probe").at("user")),
      probe_password_(herd.at("probe").at("password")),
      probe_wrong_password_(herd.at("probe").at("wrong_password")),
      probe_id_(herd.at("probe").at("user_id")),
      leaver_(herd.at("leaver").at("user")),
      leaver_password_(herd.at("leaver").at("password")),
      leaver_id_(herd.at("leaver").at("user_id")) {}

ProbeAnswer Probes::ask(std::string label, const std::string& user, const std::string& password,
                        std::optional<UserId> expected) {
  return {std::move(label), auth_.authenticate(user, password), expected};
}

std::vector<ProbeAnswer> Probes::prime() {
  return {ask(probe_user_, probe_user_, probe_password_, probe_id_),
          ask(leaver_, leaver_, leaver_password_, leaver_id_)};
}

std::vector<ProbeAnswer> Probes::after_batch(int batch, int batches) {
  std::vector<ProbeAnswer> out;
  if (!revoked_ && batches >= 2 && batch == batches / 2) {
    store_.remove(leaver_);  // the account is gone: its cached success must go with it
    auth_.revoke(leaver_);
    revoked_ = true;
  }
  out.push_back(ask("nobody", "nobody", herd_password_, std::nullopt));
  out.push_back(ask(upper(herd_user_), upper(herd_user_), herd_password_, std::nullopt));
  out.push_back(ask(probe_user_ + " wrong password", probe_user_, probe_wrong_password_, std::nullopt));
  out.push_back(ask(leaver_ + (revoked_ ? " revoked" : ""), leaver_, leaver_password_,
                    revoked_ ? std::nullopt : std::optional<UserId>(leaver_id_)));
  return out;
}

}  // namespace auth_herd
