// carddav_report (seed 000 [10]): a CardDAV REPORT (addressbook-multiget over every contact of
// an address book) answered as a multistatus XML document. The contacts, the two prop sets,
// and the two handlers (before.cpp, after.cpp) that must write the same bytes.
#pragma once

#include <string>
#include <vector>

#include "perfgate/xml_escape.hpp"

namespace carddav_report {

struct Contact {
  std::string uid, etag, full_name, first_name, last_name, org, title, note, rev;
  std::vector<std::string> emails, phones;
  std::string street, city, postal_code, country;
};

// What the REPORT asks for: getetag only, or getetag + address-data (the vCard itself).
enum class PropSet { GetEtag, GetEtagAddressData };

// The deterministic address book (fixed PRNG seed).
std::vector<Contact> make_contacts(std::size_t n);
// The same book after a few writes (main.cpp's untimed probe): the first, middle and last
// contacts edited under their uid (new etag, FN and NOTE), the one at n/3 deleted, one added.
std::vector<Contact> edit_book(std::vector<Contact> contacts);

// Shared by both variants: the response's framing, and XML escaping of text.
constexpr const char* kCollection = "/dav/addressbooks/user/contacts/";
constexpr const char* kMultistatusOpen =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<D:multistatus xmlns:D=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:carddav\">\n";
constexpr const char* kMultistatusClose = "</D:multistatus>\n";
using perfgate::append_xml_escaped;  // text content: & < > " escaped, line breaks kept

// The work a variant may skip when told to lie (the manifest's `lies`).
struct Lies {
  bool drop_last_contact = false;  // the response omits the address book's last contact
  bool skip_note_lines = false;    // address-data renders no NOTE line
  bool empty_getetag = false;      // every getetag is written empty (the etag never looked up)
  bool memoized_report = false;    // each response kept by uid across REPORTs, never invalidated
};

namespace before {
std::string handle_report(const std::vector<Contact>& contacts, PropSet props);
}
namespace after {
std::string handle_report(const std::vector<Contact>& contacts, PropSet props, const Lies& lies = {});
}

}  // namespace carddav_report
