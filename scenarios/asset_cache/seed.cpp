#include "seed.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <stdexcept>

#include "gzip.hpp"
#include "store.hpp"

namespace asset_cache {

namespace {

// SplitMix64: fully specified, so the catalogue is the same on every machine (unlike the
// standard library's distributions).
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t x = (s += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  template <class T, std::size_t N>
  const T& of(const std::array<T, N>& a) {
    return a[below(N)];
  }
};

constexpr std::array<const char*, 40> kSyllables = {
    "re", "act", "vue", "lo",  "dash", "mo",  "ment", "ax",   "ios",  "ex",   "press", "chalk", "core", "js",
    "ui", "kit", "zo",  "dex", "ra",   "pid", "flux", "nova", "tiny", "mini", "ly",    "on",    "fy",   "el",
    "ix", "ber", "gl",  "tar", "co",   "dec", "sha",  "pe",   "qu",   "ery",  "sig",   "nal"};
constexpr std::array<const char*, 24> kWords = {"value",   "state",  "props",   "node",    "render",   "update",
                                                "index",   "length", "options", "config",  "handler",  "event",
                                                "result",  "buffer", "module",  "exports", "callback", "element",
                                                "context", "target", "source",  "cache",   "token",    "parent"};
constexpr std::array<const char*, 6> kFiles = {"index.js",      "index.min.js", "dist.js",
                                               "bundle.min.js", "main.js",      "esm.js"};

std::string ident(Rng& r) {
  std::string s = r.of(kSyllables);
  s += r.of(kSyllables);
  if (r.below(3) == 0) {
    std::string w = r.of(kWords);
    w[0] = static_cast<char>(w[0] - 'a' + 'A');
    s += w;
  }
  return s;
}

std::string package_name(Rng& r) {
  std::string s = r.of(kSyllables);
  s += r.of(kSyllables);
  if (r.below(2) == 0) {
    s += "-";
    s += r.of(kWords);
  }
  return s;
}

}  // namespace

SeedParams SeedParams::from_json(const nlohmann::json& j) {
  SeedParams p;
  p.packages = j.value("packages", p.packages);
  p.versions = j.value("versions", p.versions);
  p.min_gz_bytes = j.value("min_gz_bytes", p.min_gz_bytes);
  p.max_gz_bytes = j.value("max_gz_bytes", p.max_gz_bytes);
  p.seed = j.value("seed", p.seed);
  p.text_fraction = j.value("text_fraction", p.text_fraction);
  if (!(p.text_fraction > 0.0 && p.text_fraction <= 1.0))
    throw std::invalid_argument("params: text_fraction must be in (0, 1]");
  if (p.packages < 1 || p.versions < 1) throw std::invalid_argument("params: packages and versions must be >= 1");
  if (p.min_gz_bytes < 64 || p.max_gz_bytes < p.min_gz_bytes)
    throw std::invalid_argument("params: need 64 <= min_gz_bytes <= max_gz_bytes");
  return p;
}

std::vector<AssetSpec> plan_catalog(const SeedParams& p) {
  Rng r{p.seed};
  std::vector<AssetSpec> out;
  std::set<std::string> names;
  for (int i = 0; i < p.packages; ++i) {
    std::string name = package_name(r);
    while (!names.insert(name).second) name += "-" + std::to_string(r.below(100));
    unsigned major = static_cast<unsigned>(r.below(4)), minor = static_cast<unsigned>(r.below(10)),
             patch = static_cast<unsigned>(r.below(10));
    const std::string file = r.of(kFiles);
    for (int v = 0; v < p.versions; ++v) {
      AssetSpec a;
      a.package = name;
      a.version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
      a.file = file;
      a.path = "/assets/" + a.package + "/" + a.version + "/" + a.file;
      a.target_gz_bytes = p.min_gz_bytes + r.below(p.max_gz_bytes - p.min_gz_bytes + 1);
      a.content_seed = r.next();
      out.push_back(std::move(a));
      // The next version: a patch, sometimes a minor release.
      if (r.below(3) == 0) {
        ++minor;
        patch = 0;
      } else {
        patch += 1 + static_cast<unsigned>(r.below(3));
      }
    }
  }
  return out;
}

// The untimed probes (scenario.json service.probes), asked once per sample after the window:
// what the workload never asks. `hot`: the first (hottest) URL, /assets/<package>/<version>/<file>.
// No package has a major version above 3, so 9.9.9 is an unknown version of a known file.
static void write_probes(const std::string& file, const std::string& hot) {
  const auto version = hot.find('/', std::string("/assets/").size());
  const auto name = hot.find('/', version + 1);
  const std::string package_path = hot.substr(0, version);  // /assets/<package>
  std::ofstream out(file, std::ios::trunc);
  out << "# asset_cache probes: 404, 404, 404, 405 (GET only)\n"
      << package_path << "/9.9.9" << hot.substr(name) << '\n'
      << "/assets/no-such-package/1.0.0/index.js\n"
      << hot.substr(0, name) << '\n'
      << "POST " << hot << '\n';
  if (!out.flush()) throw std::runtime_error("cannot write " + file);
}

std::vector<std::string> url_order(const SeedParams& p, const std::vector<AssetSpec>& assets) {
  std::vector<std::string> urls;
  for (const auto& a : assets) urls.push_back(a.path);
  Rng r{p.seed ^ 0x5eed0f0adULL};
  for (std::size_t i = urls.size(); i > 1; --i) std::swap(urls[i - 1], urls[r.below(i)]);
  return urls;
}

std::string js_text(std::uint64_t seed, std::size_t length) {
  Rng r{seed};
  std::vector<std::string> vocab;
  for (int i = 0; i < 48; ++i) vocab.push_back(ident(r));
  auto v = [&]() -> const std::string& { return vocab[r.below(vocab.size())]; };
  auto w = [&]() -> const char* { return r.of(kWords); };
  std::string s = "/*! " + v() + " v" + std::to_string(r.below(10)) + "." + std::to_string(r.below(20)) +
                  " | MIT */\n\"use strict\";";
  while (s.size() < length) {
    switch (r.below(8)) {
      case 0:
        s += "function " + v() + "(" + w() + "," + w() + "){return " + w() + "+" + std::to_string(r.below(1000)) + "*" +
             w() + ";}";
        break;
      case 1:
        s += "var " + v() + "=require(\"./" + v() + "\");";
        break;
      case 2:
        s += "export const " + v() + "=(" + w() + ")=>" + w() + "." + v() + "(" + std::to_string(r.below(64)) + ");";
        break;
      case 3:
        s += "if(" + v() + "&&" + v() + ".length>" + std::to_string(r.below(100)) + "){" + v() + ".push(\"" + v() +
             "-" + w() + "\");}";
        break;
      case 4:
        s += v() + ".prototype." + w() + "=function(){return this." + w() + "||" + v() + "(this);};";
        break;
      case 5:
        s += "/* " + std::string(w()) + " " + w() + " " + v() + " */\n";
        break;
      case 6:
        s += "for(var i=0;i<" + v() + ".length;i++){" + w() + "[i]=" + v() + "[i]^0x" + std::to_string(r.below(256)) +
             ";}";
        break;
      default:
        s += "const " + v() + "={" + w() + ":" + std::to_string(r.below(1u << 20)) + "," + w() + ":\"" + v() + "\"};\n";
        break;
    }
  }
  return s;
}

std::pair<std::string, std::string> make_asset(const AssetSpec& a, const SeedParams& p) {
  const std::size_t target = std::clamp(a.target_gz_bytes, p.min_gz_bytes, p.max_gz_bytes);
  // Raw length len -> {raw, gzip}: the first ceil(len * text_fraction) bytes JavaScript text,
  // the rest random bytes stored as they are.
  const double tf = p.text_fraction;
  std::string text = js_text(a.content_seed, static_cast<std::size_t>(static_cast<double>(target) * 8 * tf) + 64);
  std::string blob;
  Rng r{a.content_seed ^ 0xb10bb10bULL};
  auto make = [&](std::size_t len) {
    const auto tlen = std::min(len, static_cast<std::size_t>(std::ceil(static_cast<double>(len) * tf)));
    if (tlen > text.size()) text = js_text(a.content_seed, tlen * 2);
    while (blob.size() < len - tlen) {
      const std::uint64_t x = r.next();
      blob.append(reinterpret_cast<const char*>(&x), sizeof x);
    }
    const std::string_view t = std::string_view(text).substr(0, tlen);
    const std::string_view b = std::string_view(blob).substr(0, len - tlen);
    std::string gz = tlen == len ? gzip(t) : gzip_text_then_stored(t, b);
    return std::make_pair(std::string(t) + std::string(b), std::move(gz));
  };
  // Cut so that the gzip lands near the target: two secant steps, then nudge into range.
  std::size_t len = static_cast<std::size_t>(static_cast<double>(target) * (1.0 + 3.0 * tf));
  auto out = make(len);
  for (int i = 0; i < 2; ++i) {
    len = std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(len) * static_cast<double>(target) /
                                                            static_cast<double>(out.second.size())));
    out = make(len);
  }
  for (int guard = 0; (out.second.size() > p.max_gz_bytes || out.second.size() < p.min_gz_bytes) && guard < 64;
       ++guard) {
    len = out.second.size() > p.max_gz_bytes ? len - (len / 20 + 1) : len + len / 20 + 1;
    out = make(len);
  }
  if (out.second.size() > p.max_gz_bytes || out.second.size() < p.min_gz_bytes)
    throw std::runtime_error("seed: cannot fit " + a.path + " into the gzip size range");
  return out;
}

nlohmann::json seed_fixture(const SeedParams& p, const std::string& dir) {
  std::filesystem::create_directories(dir);
  const std::string db_path = dir + "/assets.sqlite";
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
  sqlite3* raw_db = nullptr;
  const int open_rc = sqlite3_open(db_path.c_str(), &raw_db);
  const std::unique_ptr<sqlite3, int (*)(sqlite3*)> owner(raw_db, sqlite3_close);
  sqlite3* db = raw_db;
  if (open_rc != SQLITE_OK) throw std::runtime_error("cannot create " + db_path);
  auto exec = [&](const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error(std::string("seed: ") + msg);
    }
  };
  exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
  exec(kSchema);
  exec("BEGIN");
  using Stmt = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)>;
  auto prepare = [&](const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("seed: ") + sqlite3_errmsg(db));
    return Stmt(st, sqlite3_finalize);
  };
  const Stmt pkg_stmt = prepare("INSERT INTO packages(name) VALUES (?1)");
  const Stmt ver_stmt = prepare("INSERT INTO versions(package_id, version) VALUES (?1, ?2)");
  const Stmt asset_stmt = prepare(
      "INSERT INTO assets(version_id, file, content_type, raw_size, content_gz) VALUES (?1, ?2, "
      "'application/javascript', ?3, ?4)");
  sqlite3_stmt* ins_pkg = pkg_stmt.get();
  sqlite3_stmt* ins_ver = ver_stmt.get();
  sqlite3_stmt* ins_asset = asset_stmt.get();
  auto step = [&](sqlite3_stmt* st) {
    if (sqlite3_step(st) != SQLITE_DONE) throw std::runtime_error(std::string("seed: ") + sqlite3_errmsg(db));
    sqlite3_reset(st);
    return sqlite3_last_insert_rowid(db);
  };
  const auto assets = plan_catalog(p);
  std::uint64_t gz_bytes = 0, raw_bytes = 0;
  std::string last_package;
  sqlite3_int64 package_id = 0;
  for (const auto& a : assets) {
    if (a.package != last_package) {
      sqlite3_bind_text(ins_pkg, 1, a.package.c_str(), -1, SQLITE_TRANSIENT);
      package_id = step(ins_pkg);
      last_package = a.package;
    }
    sqlite3_bind_int64(ins_ver, 1, package_id);
    sqlite3_bind_text(ins_ver, 2, a.version.c_str(), -1, SQLITE_TRANSIENT);
    const sqlite3_int64 version_id = step(ins_ver);
    const auto [raw, gz] = make_asset(a, p);
    sqlite3_bind_int64(ins_asset, 1, version_id);
    sqlite3_bind_text(ins_asset, 2, a.file.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(ins_asset, 3, static_cast<sqlite3_int64>(raw.size()));
    sqlite3_bind_blob(ins_asset, 4, gz.data(), static_cast<int>(gz.size()), SQLITE_TRANSIENT);
    step(ins_asset);
    gz_bytes += gz.size();
    raw_bytes += raw.size();
  }
  exec("COMMIT");

  const auto order = url_order(p, assets);
  std::ofstream urls(dir + "/urls.txt", std::ios::trunc);
  for (const auto& u : order) urls << u << '\n';
  if (!urls.flush()) throw std::runtime_error("cannot write " + dir + "/urls.txt");
  write_probes(dir + "/probes.txt", order.front());
  return {{"assets", assets.size()}, {"packages", p.packages}, {"gz_bytes", gz_bytes}, {"raw_bytes", raw_bytes}};
}

}  // namespace asset_cache
