#pragma once
/// @file fabric_protocol.h
/// The messages between a program's simulated NIC (or `rdmascope-cli exec`) and the fabric,
/// over one local SOCK_SEQPACKET Unix socket per host. Each message is one datagram: a type
/// byte, then either a frame's bytes or a JSON object. No message leaves this machine.
///
///   NIC -> fabric   Attach {"host": N, "pid": P, "program": "...", "sniff": bool}  first
///                   message; with "sniff" the program attaches as a sniffer of host N's port
///                   (any number of them, whether or not a program holds the host)
///   fabric -> NIC   Welcome {FabricInfo as JSON}, with the fabric's shared memory
///                   (frame_rings.h) passed as a file descriptor; or Refused {"error": "..."}
///                   and close
///   NIC -> fabric   Wake: one byte, a host number: that host's NIC sleeps and a frame waits
///                   for it in the shared memory (0: the fabric's mirror rings fill up)
///   fabric -> NIC   Wake (empty): a frame waits in the shared memory
///   both ways       Frame  (the Ethernet frame's bytes, exactly as on the wire), only while
///                   the fabric is paused (frames are then held at the switch) or stepped
///   NIC -> fabric   Log {"line": "..."}  one line for the fabric's log
///   fabric -> sniffer  Sniffed: 8-byte little-endian Unix time in ns, then a frame that host
///                   N's port sent or received, in the order the port saw them (never dropped by
///                   the fabric: a sniffer that does not read for 2 s is disconnected)
///   exec -> fabric  Query {"host": N}   -> Status {"hosts": N, "taken": bool, ...}  and close
///
/// Observers (the GUI, fabric_observer.h):
///   obs -> fabric   Observe {}  first message  -> Observing {FabricInfo, "attached": [...],
///                   "paused": bool}
///   fabric -> obs   Event {"kind": "attached"|"detached"|"call"|"state"|"log"|"paused"|
///                   "resumed", ...}; ObservedFrame: host byte, 8-byte little-endian Unix time
///                   in ns, held byte, then the frame
///   obs -> fabric   Control {"pause"|"resume"|"step_frame": true} or {"step_call": HOST}
///   fabric -> NIC   NicControl {"observed": bool, "hold": bool, "step_calls": N}
///   NIC -> fabric   State {host_state.h as JSON}; Call {"text": "..."}

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/simdev/nic.h"

namespace rdmascope::simdev {

enum class MessageType : std::uint8_t {
  Attach = 1,
  Welcome = 2,
  Refused = 3,
  Frame = 4,
  Log = 5,
  Query = 6,
  Status = 7,
  Observe = 8,
  Observing = 9,
  Event = 10,
  ObservedFrame = 11,
  Control = 12,
  NicControl = 13,
  State = 14,
  Call = 15,
  Wake = 16,
  Sniffed = 17,
};

/// The largest datagram either side sends (a 9000-byte MTU frame, or a host's state).
inline constexpr std::size_t kMaxMessage = 262144;

/// A message ready to send: the type byte followed by `body`.
std::vector<std::uint8_t> encodeMessage(MessageType type, std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encodeMessage(MessageType type, const nlohmann::json& body);

/// Sends `message` with the file descriptor `fd` attached (SCM_RIGHTS). False on failure.
bool sendWithFd(int socket, const std::vector<std::uint8_t>& message, int fd);
/// Receives one datagram into `buffer`, waiting at most `timeoutMs`; a file descriptor sent
/// with it is stored in `fd` (else -1). The datagram's size, or -1.
long receiveWithFd(int socket, std::span<std::uint8_t> buffer, int timeoutMs, int& fd);

/// A received datagram split into its type and body; nullopt for an empty or unknown type.
struct Message {
  MessageType type;
  std::span<const std::uint8_t> body;
};
std::optional<Message> decodeMessage(std::span<const std::uint8_t> datagram);
/// The body parsed as a JSON object; nullopt (and `error` set) when it is not one.
std::optional<nlohmann::json> jsonBody(const Message& message, std::string& error);

nlohmann::json toJson(const FabricInfo& info);
/// Null when a field is missing or out of range (`error` names it).
std::optional<FabricInfo> fabricInfoFromJson(const nlohmann::json& j, std::string& error);

/// The addresses of host `number` (1-based) of a fabric: 10.9.0.N, MAC 02:00:0a:09:00:N,
/// fd00::a09:N, named "hostN".
FabricHost fabricHost(int number);

/// The host (1..hosts) that owns the frame's destination MAC (02:00:0a:09:00:NN is host NN);
/// 0 for any other destination.
int destinationHost(std::span<const std::uint8_t> frame, int hosts);

/// The wall clock as Unix time in ns (frames and calls are stamped with it).
std::int64_t unixTimeNs();

/// The default socket path: $XDG_RUNTIME_DIR/rdmascope/fabric.sock, else
/// /tmp/rdmascope-UID/fabric.sock.
std::string defaultFabricSocket();

}  // namespace rdmascope::simdev
