// BEFORE: the handler renders a vCard for every contact up front; then, for each contact, it
// finds that card by a linear scan of uids (quadratic in N) only to check it is there, and
// renders the card again when writing the response. Each vCard line is built as a temporary
// string and then appended.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "carddav.hpp"

namespace carddav_report::before {
namespace {

std::string line(const std::string& name, const std::string& value) { return name + ":" + value + "\r\n"; }

std::string contact_to_vcard(const Contact& c) {
  std::string v;
  v += line("BEGIN", "VCARD");
  v += line("VERSION", "3.0");
  v += line("UID", c.uid);
  v += line("FN", c.full_name);
  v += line("N", c.last_name + ";" + c.first_name + ";;;");
  v += line("ORG", c.org);
  v += line("TITLE", c.title);
  for (const auto& e : c.emails) v += line("EMAIL;TYPE=INTERNET", e);
  for (const auto& p : c.phones) v += line("TEL;TYPE=CELL", p);
  v += line("ADR;TYPE=WORK", ";;" + c.street + ";" + c.city + ";;" + c.postal_code + ";" + c.country);
  if (!c.note.empty()) v += line("NOTE", c.note);
  v += line("REV", c.rev);
  v += line("END", "VCARD");
  return v;
}

void write_contact_response(std::string& out, const Contact& c, PropSet props) {
  out += "<D:response>\n<D:href>";
  out += std::string(kCollection) + c.uid + ".vcf";
  out += "</D:href>\n<D:propstat>\n<D:prop>\n<D:getetag>";
  append_xml_escaped(out, c.etag);
  out += "</D:getetag>\n";
  if (props == PropSet::GetEtagAddressData) {
    const std::string vcard = contact_to_vcard(c);
    out += "<C:address-data>";
    append_xml_escaped(out, vcard);
    out += "</C:address-data>\n";
  }
  out += "</D:prop>\n<D:status>HTTP/1.1 200 OK</D:status>\n</D:propstat>\n</D:response>\n";
}

}  // namespace

std::string handle_report(const std::vector<Contact>& contacts, PropSet props) {
  std::vector<std::pair<std::string, std::string>> cards;
  for (const auto& c : contacts) cards.emplace_back(c.uid, contact_to_vcard(c));
  std::string out = kMultistatusOpen;
  for (const auto& c : contacts) {
    const auto it = std::find_if(cards.begin(), cards.end(), [&c](const auto& card) { return card.first == c.uid; });
    if (it == cards.end()) throw std::logic_error("no vCard for contact " + c.uid);
    write_contact_response(out, c, props);
  }
  out += kMultistatusClose;
  return out;
}

}  // namespace carddav_report::before
