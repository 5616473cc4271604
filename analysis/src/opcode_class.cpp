#include "opcode_class.h"

namespace rdmascope::analysis {

OpClass classifyOpcode(std::uint8_t opcode) {
  OpClass c;
  const packets::IbOpcodeInfo* info = packets::ibOpcodeInfo(opcode);
  if (!info) return c;
  c.transport = info->transport;
  c.payload = info->payload;
  if (info->transport == packets::IbTransport::Cnp) {
    c.role = Role::Cnp;
    return c;
  }
  if (info->transport == packets::IbTransport::Ud) {
    c.role = Role::Request;
    c.first = c.last = true;
    return c;
  }
  // RC, UC, RD and XRC number their operations alike in the low five bits (IBTA 9.2.1).
  const auto request = [&](MessageKind kind, bool first, bool last) {
    c.role = Role::Request;
    c.kind = kind;
    c.first = first;
    c.last = last;
  };
  switch (opcode & 0x1f) {
    case 0x00:
      request(MessageKind::Send, true, false);
      break;
    case 0x01:
      request(MessageKind::Send, false, false);
      break;
    case 0x02:
    case 0x03:
    case 0x16:
      request(MessageKind::Send, false, true);
      break;
    case 0x04:
    case 0x05:
    case 0x17:
      request(MessageKind::Send, true, true);
      break;
    case 0x06:
      request(MessageKind::Write, true, false);
      break;
    case 0x07:
      request(MessageKind::Write, false, false);
      break;
    case 0x08:
    case 0x09:
      request(MessageKind::Write, false, true);
      break;
    case 0x0a:
    case 0x0b:
      request(MessageKind::Write, true, true);
      break;
    case 0x0c:
      request(MessageKind::Read, true, true);
      break;
    case 0x0d:
      c.role = Role::ReadResponse;
      c.first = true;
      break;
    case 0x0e:
      c.role = Role::ReadResponse;
      break;
    case 0x0f:
      c.role = Role::ReadResponse;
      c.last = true;
      break;
    case 0x10:
      c.role = Role::ReadResponse;
      c.first = c.last = true;
      break;
    case 0x11:
      c.role = Role::Ack;
      break;
    case 0x12:
      c.role = Role::AtomicAck;
      break;
    case 0x13:
    case 0x14:
      request(MessageKind::Atomic, true, true);
      break;
    case 0x1c:
      request(MessageKind::Flush, true, true);
      break;
    case 0x1d:
      request(MessageKind::AtomicWrite, true, true);
      break;
    default:
      break;
  }
  if (c.role == Role::ReadResponse) c.kind = MessageKind::Read;
  return c;
}

}  // namespace rdmascope::analysis
