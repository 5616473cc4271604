#include "rdmascope/simdev/fabric_protocol.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

namespace rdmascope::simdev {

std::vector<std::uint8_t> encodeMessage(MessageType type, std::span<const std::uint8_t> body) {
  std::vector<std::uint8_t> out;
  out.reserve(body.size() + 1);
  out.push_back(static_cast<std::uint8_t>(type));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::vector<std::uint8_t> encodeMessage(MessageType type, const nlohmann::json& body) {
  const std::string text = body.dump();
  return encodeMessage(type,
                       std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

std::optional<Message> decodeMessage(std::span<const std::uint8_t> datagram) {
  if (datagram.empty()) return std::nullopt;
  const std::uint8_t t = datagram[0];
  if (t < static_cast<std::uint8_t>(MessageType::Attach) ||
      t > static_cast<std::uint8_t>(MessageType::Sniffed)) {
    return std::nullopt;
  }
  return Message{static_cast<MessageType>(t), datagram.subspan(1)};
}

bool sendWithFd(int socket, const std::vector<std::uint8_t>& message, int fd) {
  iovec iov{const_cast<std::uint8_t*>(message.data()), message.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  for (;;) {
    if (::sendmsg(socket, &msg, MSG_NOSIGNAL) >= 0) return true;
    if (errno != EINTR) return false;
  }
}

long receiveWithFd(int socket, std::span<std::uint8_t> buffer, int timeoutMs, int& fd) {
  fd = -1;
  pollfd p{socket, POLLIN, 0};
  if (::poll(&p, 1, timeoutMs) <= 0) return -1;
  iovec iov{buffer.data(), buffer.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t n;
  do {
    n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int got;
      std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
      if (fd < 0) {
        fd = got;
      } else {
        ::close(got);  // only one is expected
      }
    }
  }
  return n;
}

std::optional<nlohmann::json> jsonBody(const Message& message, std::string& error) {
  nlohmann::json j = nlohmann::json::parse(message.body.begin(), message.body.end(), nullptr,
                                           /*allow_exceptions=*/false);
  if (!j.is_object()) {
    error = "a control message is not a JSON object";
    return std::nullopt;
  }
  return j;
}

namespace {

std::string macText(const sim::MacAddress& m) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", m[0], m[1], m[2], m[3], m[4],
                     m[5]);
}

std::int64_t intField(const nlohmann::json& j, const char* key, std::int64_t otherwise) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<std::int64_t>() : otherwise;
}

}  // namespace

FabricHost fabricHost(int number) {
  FabricHost h;
  h.number = number;
  h.name = fmt::format("host{}", number);
  const auto n = static_cast<std::uint8_t>(number);
  h.mac = {0x02, 0x00, 0x0a, 0x09, 0x00, n};
  h.ipv4 = 0x0a090000u | n;
  h.ipv6 = {};
  h.ipv6[0] = 0xfd;
  h.ipv6[13] = 0x0a;
  h.ipv6[14] = 0x09;
  h.ipv6[15] = n;
  return h;
}

nlohmann::json toJson(const FabricInfo& info) {
  nlohmann::json hosts = nlohmann::json::array();
  for (const FabricHost& h : info.hosts) {
    hosts.push_back({{"number", h.number}, {"name", h.name}, {"mac", macText(h.mac)}});
  }
  return {{"self", info.self},
          {"device", info.deviceName},
          {"wire", static_cast<int>(info.wire)},
          {"link_mtu", info.linkMtu},
          {"hosts", hosts}};
}

std::optional<FabricInfo> fabricInfoFromJson(const nlohmann::json& j, std::string& error) {
  FabricInfo info;
  const auto hosts = j.find("hosts");
  if (hosts == j.end() || !hosts->is_array() || hosts->empty() || hosts->size() > 254) {
    error = "the fabric's welcome has no host list";
    return std::nullopt;
  }
  for (std::size_t i = 0; i < hosts->size(); ++i) {
    info.hosts.push_back(fabricHost(static_cast<int>(i + 1)));
  }
  const auto self = intField(j, "self", 0);
  const auto wire = intField(j, "wire", -1);
  const auto mtu = intField(j, "link_mtu", 0);
  if (self < 1 || self > static_cast<std::int64_t>(info.hosts.size())) {
    error = "the fabric's welcome names no host for this program";
    return std::nullopt;
  }
  if (wire < 0 || wire > static_cast<int>(sim::WireFormat::RoceV1)) {
    error = "the fabric's welcome names an unknown wire format";
    return std::nullopt;
  }
  if (mtu < 576 || mtu > 9000) {
    error = "the fabric's welcome has an MTU outside 576..9000";
    return std::nullopt;
  }
  info.self = static_cast<int>(self);
  const auto device = j.find("device");
  info.deviceName = device != j.end() && device->is_string() ? device->get<std::string>()
                                                             : std::string("rdmascope0");
  info.wire = static_cast<sim::WireFormat>(wire);
  info.linkMtu = static_cast<std::uint32_t>(mtu);
  return info;
}

int destinationHost(std::span<const std::uint8_t> frame, int hosts) {
  if (frame.size() < 14 || frame[0] != 0x02 || frame[1] != 0 || frame[2] != 0x0a ||
      frame[3] != 0x09 || frame[4] != 0 || frame[5] < 1 || frame[5] > hosts) {
    return 0;
  }
  return frame[5];
}

std::int64_t unixTimeNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string defaultFabricSocket() {
  if (const char* run = std::getenv("XDG_RUNTIME_DIR"); run && *run) {
    return std::string(run) + "/rdmascope/fabric.sock";
  }
  return fmt::format("/tmp/rdmascope-{}/fabric.sock", ::getuid());
}

}  // namespace rdmascope::simdev
