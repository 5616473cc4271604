#pragma once
/// @file fabric_protocol.h
/// The messages between a program's simulated NIC (or `rdmascope-cli exec`) and the fabric,
/// over one local SOCK_SEQPACKET Unix socket per host. Each message is one datagram: a type
/// byte, then either a frame's bytes or a JSON object. No message leaves this machine.
///
///   NIC -> fabric   Attach {"host": N, "pid": P, "program": "..."}  first message
///   fabric -> NIC   Welcome {FabricInfo as JSON}  or  Refused {"error": "..."} and close
///   both ways       Frame  (the Ethernet frame's bytes, exactly as on the wire)
///   NIC -> fabric   Log {"line": "..."}  one line for the fabric's log
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
};

/// The largest datagram either side sends (a 9000-byte MTU frame, or a host's state).
inline constexpr std::size_t kMaxMessage = 262144;

/// A message ready to send: the type byte followed by `body`.
std::vector<std::uint8_t> encodeMessage(MessageType type, std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encodeMessage(MessageType type, const nlohmann::json& body);

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

/// The default socket path: $XDG_RUNTIME_DIR/rdmascope/fabric.sock, else
/// /tmp/rdmascope-UID/fabric.sock.
std::string defaultFabricSocket();

}  // namespace rdmascope::simdev
