#include "rdmascope/packets/ib_builder.h"

namespace rdmascope::packets {
namespace {

// A packet for an opcode with every header its table entry lists filled with distinctive
// values, and a payload whose length exercises the pad count.
IbPacket samplePacket(const IbOpcodeInfo& info, std::uint32_t psn) {
  IbPacket p;
  p.bth.opcode = info.opcode;
  p.bth.destQp = 0x000011;
  p.bth.psn = psn;
  p.bth.ackReq = info.transport == IbTransport::Rc;
  p.bth.migReq = true;
  p.bth.solicitedEvent = (psn & 1) != 0;
  for (const IbExt e : info.extensions()) {
    switch (e) {
      case IbExt::Rdeth:
        p.rdeth = Rdeth{0x00abcd};
        break;
      case IbExt::Deth:
        p.deth = Deth{0x11111111, 0x000123};
        break;
      case IbExt::XrcEth:
        p.xrcEth = XrcEth{0x000042};
        break;
      case IbExt::Reth:
        p.reth = Reth{0x00007f0012345678ull, 0x0000abcd, 4096};
        break;
      case IbExt::Aeth:
        p.aeth = Aeth::ack(5, 12);
        break;
      case IbExt::AtomicEth:
        p.atomicEth = AtomicEth{0x00007f0000001000ull, 0x00000077, 5, 6};
        break;
      case IbExt::AtomicAckEth:
        p.atomicAckEth = AtomicAckEth{123456789};
        break;
      case IbExt::ImmDt:
        p.immDt = 0xdeadbeef;
        break;
      case IbExt::Ieth:
        p.ieth = 0x00001234;
        break;
      case IbExt::Feth:
        p.feth = Feth{1, 1};
        break;
      case IbExt::Cnp:
        break;
    }
  }
  if (info.payload) {
    const std::size_t n =
        info.opcode == static_cast<std::uint8_t>(IbOpcode::RcAtomicWrite) ? 8 : 13 + (psn % 4);
    for (std::size_t i = 0; i < n; ++i)
      p.payload.push_back(static_cast<std::uint8_t>('a' + i % 26));
  }
  return p;
}

}  // namespace

std::vector<SampleFrame> sampleIbFrames() {
  std::vector<SampleFrame> out;
  RoceAddressing v4;
  std::uint32_t psn = 12042734;
  for (const auto& info : kIbOpcodeTable) {
    out.push_back({LinkType::Ethernet, buildRoceV2(v4, samplePacket(info, psn++)),
                   "RoCEv2/IPv4 " + std::string(info.name)});
  }
  // The AETH variants.
  IbPacket ack = samplePacket(*ibOpcodeInfo(IbOpcode::RcAcknowledge), psn++);
  for (const Aeth a :
       {Aeth::ack(7), Aeth::rnrNak(7, 1), Aeth::rnrNak(7, 0), Aeth::rnrNak(7, 31),
        Aeth::nak(7, NakCode::PsnSequenceError), Aeth::nak(7, NakCode::RemoteAccessError)}) {
    ack.aeth = a;
    out.push_back({LinkType::Ethernet, buildRoceV2(v4, ack),
                   "RoCEv2/IPv4 RC Acknowledge " + describeAethSyndrome(a.syndrome)});
  }
  RoceAddressing v6;
  v6.srcIp = *IpAddress::parse("fe80::1");
  v6.dstIp = *IpAddress::parse("fe80::2");
  v6.flowLabel = 0x12345;
  v6.dscp = 26;
  v6.ecn = 2;
  RoceAddressing tagged = v4;
  tagged.vlan = VlanTag{3, false, 100};
  tagged.ecn = 3;
  RoceV1Addressing v1;
  v1.grh.sgid = IpAddress::parse("fe80::1")->bytes;
  v1.grh.dgid = IpAddress::parse("fe80::2")->bytes;
  v1.grh.flowLabel = 0x54321;
  v1.grh.trafficClass = 0x20;
  NativeIbAddressing local;
  local.lrh.dlid = 2;
  local.lrh.slid = 1;
  local.lrh.vl = 0;
  local.lrh.sl = 3;
  NativeIbAddressing global = local;
  global.grh = v1.grh;
  for (const IbOpcode op :
       {IbOpcode::RcSendOnly, IbOpcode::RcRdmaWriteOnlyWithImmediate, IbOpcode::RcRdmaReadRequest,
        IbOpcode::RcAcknowledge, IbOpcode::UdSendOnly, IbOpcode::RcFetchAdd}) {
    const auto* info = ibOpcodeInfo(op);
    const auto p = samplePacket(*info, psn++);
    const std::string name(info->name);
    out.push_back({LinkType::Ethernet, buildRoceV2(v6, p), "RoCEv2/IPv6 " + name});
    out.push_back({LinkType::Ethernet, buildRoceV2(tagged, p), "RoCEv2/802.1Q/IPv4 " + name});
    out.push_back({LinkType::Ethernet, buildRoceV1(v1, p), "RoCEv1 " + name});
    out.push_back(
        {LinkType::Erf, wrapErfInfiniband(buildNativeIb(local, p)), "native IB local " + name});
    out.push_back(
        {LinkType::Erf, wrapErfInfiniband(buildNativeIb(global, p)), "native IB global " + name});
  }
  return out;
}

}  // namespace rdmascope::packets
