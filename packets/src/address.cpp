#include "rdmascope/packets/address.h"

#include <arpa/inet.h>

namespace rdmascope::packets {

std::optional<IpAddress> IpAddress::parse(const std::string& text) {
  IpAddress a;
  if (inet_pton(AF_INET, text.c_str(), a.bytes.data()) == 1) return a;
  a.v6 = true;
  if (inet_pton(AF_INET6, text.c_str(), a.bytes.data()) == 1) return a;
  return std::nullopt;
}

std::string IpAddress::toString() const {
  if (!v6) {
    // Dotted decimal by hand: inet_ntop formats IPv4 through sprintf, twice per frame of an
    // analysis.
    std::string out;
    out.reserve(15);
    for (int i = 0; i < 4; ++i) {
      if (i) out.push_back('.');
      const unsigned v = bytes[static_cast<std::size_t>(i)];
      if (v >= 100) out.push_back(static_cast<char>('0' + v / 100));
      if (v >= 10) out.push_back(static_cast<char>('0' + v / 10 % 10));
      out.push_back(static_cast<char>('0' + v % 10));
    }
    return out;
  }
  char buf[INET6_ADDRSTRLEN];
  if (!inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf)) return {};
  return buf;
}

}  // namespace rdmascope::packets
