#pragma once
// What an opcode means to flow analysis: request or answer, which operation, which packet of
// the message. Names and extension headers come from the packet layer's opcode table.

#include <cstdint>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::analysis {

enum class Role : std::uint8_t { Request, ReadResponse, Ack, AtomicAck, Cnp, Other };

struct OpClass {
  Role role = Role::Other;
  MessageKind kind = MessageKind::Send;
  packets::IbTransport transport = packets::IbTransport::Rc;
  bool first = false;  ///< FIRST or ONLY
  bool last = false;   ///< LAST or ONLY
  bool payload = false;
};

OpClass classifyOpcode(std::uint8_t opcode);

}  // namespace rdmascope::analysis
