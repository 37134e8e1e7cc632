// The deterministic address book and the XML escaping both handlers share.
#include <cstdio>
#include <random>
#include <stdexcept>

#include "carddav.hpp"

namespace carddav_report {
namespace {

const char* const kFirst[] = {"Anna", "Ben",  "Chloé", "David", "Eva",  "Farid", "Greta", "Hugo", "Ines", "Jonas",
                              "Kira", "Lars", "Mia",   "Noah",  "Olga", "Paul",  "Quinn", "Rosa", "Sven", "Tara"};
const char* const kLast[] = {"Müller", "Schmidt", "Okafor",   "Nguyen", "García",  "Kowalski", "Rossi",   "Larsen",
                             "Dubois", "Yilmaz",  "Svensson", "Novak",  "Fischer", "Tanaka",   "Ibrahim", "O'Brien"};
// Some organisations carry characters XML must escape.
const char* const kOrgs[] = {"Acme GmbH",         "Smith & Sons", "Nordwind AG", "<Initech>",
                             "Blue \"Sky\" Labs", "Café Central", "Tyrell Corp", "Globex"};
const char* const kCities[] = {"Berlin", "Hamburg", "München", "Köln", "Wien", "Zürich", "Lyon", "Porto"};

std::string uuid_like(std::mt19937_64& rng) {
  char buf[40];
  const auto a = rng(), b = rng();
  std::snprintf(buf, sizeof buf, "%08llx-%04llx-4%03llx-b%03llx-%012llx", static_cast<unsigned long long>(a >> 32),
                static_cast<unsigned long long>((a >> 16) & 0xffff), static_cast<unsigned long long>(a & 0xfff),
                static_cast<unsigned long long>(b >> 52), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

template <std::size_t N>
const char* pick(std::mt19937_64& rng, const char* const (&a)[N]) {
  return a[rng() % N];
}

}  // namespace

std::vector<Contact> make_contacts(std::size_t n) {
  std::mt19937_64 rng(0x5eed0010);
  std::vector<Contact> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Contact c;
    c.uid = uuid_like(rng);
    char etag[32];
    std::snprintf(etag, sizeof etag, "\"%llx-%zu\"", static_cast<unsigned long long>(rng() & 0xffffffffffULL),
                  i % 7 + 1);
    c.etag = etag;
    c.first_name = pick(rng, kFirst);
    c.last_name = pick(rng, kLast);
    c.full_name = c.first_name + " " + c.last_name;
    c.org = pick(rng, kOrgs);
    c.title = i % 3 == 0 ? "Head of Engineering" : i % 3 == 1 ? "Sales & Partnerships" : "Accountant";
    for (std::size_t e = 0, ne = 1 + rng() % 3; e < ne; ++e)
      c.emails.push_back(c.first_name.substr(0, 1) + "." + std::to_string(i) + "." + std::to_string(e) +
                         "@example.org");
    for (std::size_t p = 0, np = rng() % 3; p < np; ++p)
      c.phones.push_back("+49 30 " + std::to_string(1000000 + rng() % 8999999));
    c.street = std::to_string(1 + rng() % 200) + " Lindenstraße";
    c.city = pick(rng, kCities);
    c.postal_code = std::to_string(10000 + rng() % 89999);
    c.country = "Germany";
    if (i % 4 == 0) c.note = "Met at the conference <" + std::to_string(2015 + i % 10) + "> & kept in touch";
    char rev[32];
    std::snprintf(rev, sizeof rev, "2024%02zu%02zuT%02zu%02zu00Z", 1 + i % 12, 1 + i % 28, i % 24, i % 60);
    c.rev = rev;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<Contact> edit_book(std::vector<Contact> contacts) {
  const std::size_t n = contacts.size();
  if (n == 0) throw std::invalid_argument("edit_book needs a contact to edit");
  for (const std::size_t i : {std::size_t{0}, n / 2, n - 1}) {
    Contact& c = contacts[i];
    c.etag = "\"edited-" + std::to_string(i) + "\"";
    c.full_name = "Dr. " + c.first_name + " " + c.last_name;
    c.note = "Edited after the REPORT: new number & <address>";
    c.rev = "20250101T000000Z";
  }
  contacts.erase(contacts.begin() + static_cast<std::ptrdiff_t>(n / 3));
  Contact added = contacts.front();
  added.uid = "00000000-0000-4000-b000-0000000add01";
  added.etag = "\"added-1\"";
  added.first_name = "Zoë";
  added.last_name = "Added";
  added.full_name = "Zoë Added";
  added.emails = {"z.added@example.org"};
  added.note = "Added after the REPORT";
  contacts.push_back(std::move(added));
  return contacts;
}

}  // namespace carddav_report
