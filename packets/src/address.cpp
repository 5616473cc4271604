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
  char buf[INET6_ADDRSTRLEN];
  if (!inet_ntop(v6 ? AF_INET6 : AF_INET, bytes.data(), buf, sizeof buf)) return {};
  return buf;
}

}  // namespace rdmascope::packets
