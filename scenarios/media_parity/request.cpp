#include "request.hpp"

#include <cctype>

namespace media_parity {

namespace {

std::string decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
               std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

Request::Request(const std::string& target) {
  const auto q = target.find('?');
  path_ = decode(target.substr(0, q));
  if (q == std::string::npos) return;
  std::size_t start = q + 1;
  while (start <= target.size()) {
    auto end = target.find('&', start);
    if (end == std::string::npos) end = target.size();
    const std::string pair = target.substr(start, end - start);
    if (!pair.empty()) {
      const auto eq = pair.find('=');
      params_[decode(pair.substr(0, eq))] = eq == std::string::npos ? "" : decode(pair.substr(eq + 1));
    }
    start = end + 1;
  }
}

std::string Request::get(const std::string& name, const std::string& fallback) const {
  auto it = params_.find(name);
  return it == params_.end() ? fallback : it->second;
}

long long Request::integer(const std::string& name, long long fallback) const {
  auto it = params_.find(name);
  if (it == params_.end() || it->second.empty()) return fallback;
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(it->second, &used);
  } catch (const std::exception&) {
  }
  if (used != it->second.size() || v < 0)
    throw HttpError(400, "query parameter " + name + "='" + it->second + "' is not a non-negative integer");
  return v;
}

std::vector<std::string> Request::list(const std::string& name) const {
  std::vector<std::string> out;
  const std::string v = get(name);
  std::size_t start = 0;
  while (start <= v.size()) {
    auto end = v.find(',', start);
    if (end == std::string::npos) end = v.size();
    if (end > start) out.push_back(v.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string Request::key() const {
  std::string k = path_;
  char sep = '?';
  for (const auto& [name, value] : params_) {
    k += sep + name + "=" + value;
    sep = '&';
  }
  return k;
}

bool Request::field(const std::string& f) const {
  for (const auto& x : list("Fields"))
    if (x == f) return true;
  return false;
}

}  // namespace media_parity
