#include "played.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>

#include "access.hpp"
#include "describe.hpp"
#include "routes.hpp"

namespace media_parity {

namespace {

// "/Users/u/PlayedItems/i" -> {"u", "i"}; nullopt for any other path.
std::optional<std::pair<std::string, std::string>> played_parts(const std::string& path) {
  std::vector<std::string> parts;
  for (std::size_t start = 1; start <= path.size() && !path.empty() && path[0] == '/';) {
    auto end = std::min(path.find('/', start), path.size());
    parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  if (parts.size() != 4 || parts[0] != "Users" || parts[2] != "PlayedItems" || parts[1].empty() || parts[3].empty())
    return std::nullopt;
  return std::make_pair(parts[1], parts[3]);
}

std::string format_date(const std::tm& t, const std::string& fraction) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%sZ", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
                t.tm_hour, t.tm_min, t.tm_sec, fraction.c_str());
  return buf;
}

// datePlayed in ISO 8601, UTC ("2024-06-01T12:00:00", a fraction and 'Z' optional), written
// as the library stores dates ("2024-06-01T12:00:00.0000000Z"); 400 naming it otherwise.
std::string played_date(const std::string& v) {
  const auto bad = [&] {
    return HttpError(400, "query parameter datePlayed='" + v + "' is not a UTC date (YYYY-MM-DDTHH:MM:SS[.f][Z])");
  };
  const std::string shape = "dddd-dd-ddTdd:dd:dd";
  if (v.size() < shape.size()) throw bad();
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(v[i])) : v[i] != shape[i]) throw bad();
  std::size_t at = shape.size();
  std::string fraction;
  if (at < v.size() && v[at] == '.') {
    while (++at < v.size() && std::isdigit(static_cast<unsigned char>(v[at]))) fraction += v[at];
    if (fraction.empty()) throw bad();
  }
  if (v.substr(at) != "" && v.substr(at) != "Z") throw bad();
  fraction = (fraction + "0000000").substr(0, 7);  // .NET's ticks: seven digits
  std::tm t{};
  t.tm_year = std::stoi(v.substr(0, 4)) - 1900;
  t.tm_mon = std::stoi(v.substr(5, 2)) - 1;
  t.tm_mday = std::stoi(v.substr(8, 2));
  t.tm_hour = std::stoi(v.substr(11, 2));
  t.tm_min = std::stoi(v.substr(14, 2));
  t.tm_sec = std::stoi(v.substr(17, 2));
  std::tm check = t;
  const std::time_t when = timegm(&check);
  std::tm back{};
  gmtime_r(&when, &back);
  if (back.tm_year != t.tm_year || back.tm_mon != t.tm_mon || back.tm_mday != t.tm_mday || back.tm_hour != t.tm_hour ||
      back.tm_min != t.tm_min || back.tm_sec != t.tm_sec)
    throw bad();  // 2024-02-30, 25:00 ...
  return format_date(t, fraction);
}

std::string now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return format_date(tm, "0000000");
}

// BaseItem.MarkPlayed on the writer, and the row's UserItemDataDto.
Json mark_played(Connection& db, const std::string& who, const std::string& item,
                 const std::optional<std::string>& date, const ServeOptions& options) {
  Access access(db, who, options);
  const std::string libraries = access.libraries();  // 403 for a disabled user
  if (!db.scalar("SELECT 1 FROM BaseItems WHERE Id = ?1 AND TopParentId IN (SELECT value FROM json_each(?2))",
                 {item, libraries}))
    throw HttpError(404, "no item '" + item + "' in this user's libraries");
  long long count = 0;
  std::optional<std::string> last;
  db.query("SELECT PlayCount, LastPlayedDate FROM UserData WHERE ItemId = ?1 AND UserId = ?2 AND CustomDataKey = ?1",
           {item, access.user()}, [&](const Row& r) {
             count = r.integer(0);
             if (!r.null(1)) last = r.text(1);
           });
  const long long plays = date ? count + 1 : std::max(count, 1LL);
  const std::string when = date ? *date : last ? *last : now();
  db.query(
      "INSERT INTO UserData (ItemId, UserId, CustomDataKey, Played, PlayCount, IsFavorite, PlaybackPositionTicks, "
      "LastPlayedDate) VALUES (?1, ?2, ?1, 1, ?3, 0, 0, ?4) ON CONFLICT (ItemId, UserId, CustomDataKey) DO UPDATE "
      "SET Played = 1, PlayCount = excluded.PlayCount, PlaybackPositionTicks = 0, "
      "LastPlayedDate = excluded.LastPlayedDate",
      {item, access.user(), plays, when}, [](const Row&) {});
  Json dto;
  db.query(std::string("SELECT ") + kUserDataColumns +
               " FROM UserData WHERE ItemId = ?1 AND UserId = ?2 AND CustomDataKey = ?1",
           {item, access.user()}, [&](const Row& r) { dto = read_user_data(r); });
  return dto;
}

}  // namespace

bool is_played_path(const std::string& path) { return played_parts(path).has_value(); }

Answer answer_post(Pool& pool, const std::string& target, const ServeOptions& options) {
  Answer a;
  answer_or_error(a, [&] {
    const Request request(target);
    const auto parts = played_parts(request.path());
    if (!parts) {
      if (route(request.path())) throw HttpError(405, "GET only: " + request.path());
      throw HttpError(404, "no route POST " + request.path());
    }
    std::optional<std::string> date;
    if (request.has("datePlayed")) date = played_date(request.get("datePlayed"));
    Json dto;
    pool.write([&](Connection& db) { dto = mark_played(db, parts->first, parts->second, date, options); },
               a.statements);
    a.body = dto.dump();
  });
  return a;
}

}  // namespace media_parity
