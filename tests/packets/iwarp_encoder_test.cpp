// Expected bytes built by hand from RFC 5044 (MPA), RFC 5041 (DDP) and RFC 5040 (RDMAP),
// checked in both directions: structs to bytes here, bytes to fields through CaptureDecoder.

#include "rdmascope/packets/iwarp_encoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "iwarp_conversation.h"
#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::packets {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes ascii(const char* s) {
  return Bytes(s, s + 16);
}

TEST(IwarpEncoder, Crc32cMatchesTheIscsiReferenceValues) {
  // RFC 3720 appendix B.4: 32 bytes of zeros give the CRC bytes aa 36 91 8a on the wire.
  const Bytes zeros(32, 0);
  EXPECT_EQ(crc32c(zeros), 0x8a9136aau);
  const std::string check = "123456789";
  EXPECT_EQ(crc32c(Bytes(check.begin(), check.end())), 0xe3069283u);
}

TEST(IwarpEncoder, MpaRequestAndReplyBytes) {
  MpaStartFrame req;
  req.markers = true;
  req.crc = true;
  req.privateData = {0xde, 0xad, 0xbe};
  Bytes want = ascii("MPA ID Req Frame");
  want.insert(want.end(), {0xc0, 0x01, 0x00, 0x03, 0xde, 0xad, 0xbe});
  EXPECT_EQ(encodeMpaStartFrame(req), want);

  MpaStartFrame rep;
  rep.reply = true;
  rep.crc = false;
  rep.reject = true;
  want = ascii("MPA ID Rep Frame");
  want.insert(want.end(), {0x20, 0x01, 0x00, 0x00});
  EXPECT_EQ(encodeMpaStartFrame(rep), want);

  rep.privateData.assign(513, 0);
  EXPECT_THROW(encodeMpaStartFrame(rep), std::invalid_argument);
}

TEST(IwarpEncoder, DdpTaggedWriteHeader) {
  DdpSegmentHeader h;
  h.opcode = RdmapOpcode::Write;
  h.stag = 0x12345678;
  h.taggedOffset = 0x0102030405060708ull;
  // T=1 L=1 Rsvd=0 DV=1 | RV=1 Rsv=0 Opcode=0 | STag | TO | payload
  const Bytes want = {0xc1, 0x40, 0x12, 0x34, 0x56, 0x78, 0x01, 0x02,
                      0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xaa, 0xbb};
  EXPECT_EQ(encodeDdpSegment(h, Bytes{0xaa, 0xbb}), want);
  h.opcode = RdmapOpcode::ReadResponse;
  h.last = false;
  auto v = encodeDdpSegment(h, {});
  EXPECT_EQ(v[0], 0x81);
  EXPECT_EQ(v[1], 0x42);
  EXPECT_EQ(v.size(), kDdpTaggedHeaderLength);
}

TEST(IwarpEncoder, DdpUntaggedSendReadRequestAndTerminate) {
  DdpSegmentHeader h;
  h.opcode = RdmapOpcode::SendSeInvalidate;
  h.invalidateStag = 0xcafef00d;
  h.msn = 7;
  h.messageOffset = 0x100;
  const Bytes want = {0x41, 0x46, 0xca, 0xfe, 0xf0, 0x0d, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 1, 0};
  EXPECT_EQ(encodeDdpSegment(h, {}), want);

  ReadRequestHeader rr{0x11111111, 0x2222222222222222ull, 0x3333, 0x44444444, 0x55ull};
  const Bytes rrWant = {0x11, 0x11, 0x11, 0x11, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
                        0x22, 0x22, 0x00, 0x00, 0x33, 0x33, 0x44, 0x44, 0x44, 0x44,
                        0,    0,    0,    0,    0,    0,    0,    0x55};
  EXPECT_EQ(encodeReadRequest(rr), rrWant);

  TerminateHeader t;
  t.layer = 0;
  t.errorType = 1;
  t.errorCode = 0x02;
  t.rdmapHeaderIncluded = true;
  t.rdmapHeader = rrWant;
  auto term = encodeTerminate(t);
  ASSERT_EQ(term.size(), 4u + 28u);
  EXPECT_EQ(term[0], 0x01);
  EXPECT_EQ(term[1], 0x02);
  EXPECT_EQ(term[2], 0x20);
  EXPECT_EQ(term[3], 0x00);
  t.ddpHeaderIncluded = true;
  t.ddpHeader = Bytes(5, 0);
  EXPECT_THROW(encodeTerminate(t), std::invalid_argument);
}

TEST(IwarpEncoder, FpduPadAndLittleEndianCrc) {
  const Bytes ulpdu = {0xc1, 0x40, 0x01};
  const auto f = encodeFpdu(ulpdu, {false, true});
  // ULPDU_Length 3, ULPDU, 3 pad bytes (2+3+3 = 8), CRC32c of those 8 bytes LSB first.
  ASSERT_EQ(f.size(), 12u);
  const Bytes head = {0x00, 0x03, 0xc1, 0x40, 0x01, 0x00, 0x00, 0x00};
  EXPECT_EQ(Bytes(f.begin(), f.begin() + 8), head);
  const std::uint32_t crc = crc32c(head);
  EXPECT_EQ(f[8], crc & 0xff);
  EXPECT_EQ(f[9], (crc >> 8) & 0xff);
  EXPECT_EQ(f[10], (crc >> 16) & 0xff);
  EXPECT_EQ(f[11], crc >> 24);
  // Without negotiated CRC the field is zero.
  const auto noCrc = encodeFpdu(ulpdu, {false, false});
  EXPECT_EQ(Bytes(noCrc.begin() + 8, noCrc.end()), Bytes(4, 0));
  EXPECT_EQ(mpaPadLength(2), 0u);
  EXPECT_EQ(mpaPadLength(0), 2u);
  EXPECT_THROW(encodeFpdu(Bytes(65536, 0), {}), std::invalid_argument);
}

TEST(IwarpEncoder, MarkersEvery512OctetsPointBackToTheHeader) {
  const Bytes ulpdu(600, 0x77);
  // At stream offset 0 the first marker precedes the FPDU (pointer 0); the next one, at 512,
  // points back 508 octets to ULPDU_Length (which starts at 4).
  const auto f = encodeFpdu(ulpdu, {true, true}, 0);
  ASSERT_EQ(f.size(), 4u + 2 + 600 + 2 + 4 + 4);
  EXPECT_EQ(fpduWireLength(608, true, 0), f.size());
  EXPECT_EQ(Bytes(f.begin(), f.begin() + 6), (Bytes{0, 0, 0, 0, 0x02, 0x58}));
  EXPECT_EQ(Bytes(f.begin() + 512, f.begin() + 516), (Bytes{0, 0, 0x01, 0xfc}));
  // The CRC covers markers: computed over every wire byte in front of it.
  const std::uint32_t crc = crc32c(std::span(f).first(f.size() - 4));
  EXPECT_EQ(f[f.size() - 4], crc & 0xff);
  EXPECT_EQ(f[f.size() - 1], crc >> 24);

  // An FPDU starting at 1020 meets a marker at 1024 (wire index 4, pointer 4).
  const auto g = encodeFpdu(Bytes(20, 1), {true, true}, 1020);
  ASSERT_EQ(g.size(), 2u + 20 + 2 + 4 + 4);
  EXPECT_EQ(Bytes(g.begin() + 4, g.begin() + 8), (Bytes{0, 0, 0, 4}));
  EXPECT_EQ(Bytes(g.begin(), g.begin() + 2), (Bytes{0, 20}));

  // A marker due exactly where the CRC starts comes before the CRC and is covered by it:
  // 2 + 506 bytes starting at offset 4 end at 512.
  const auto h = encodeFpdu(Bytes(506, 3), {true, true}, 4);
  ASSERT_EQ(h.size(), 508u + 4 + 4);
  EXPECT_EQ(Bytes(h.begin() + 508, h.begin() + 512), (Bytes{0, 0, 0x01, 0xfc}));
  const std::uint32_t hc = crc32c(std::span(h).first(512));
  EXPECT_EQ(h[512], hc & 0xff);
}

TEST(IwarpEncoder, StreamEncoderTracksTheOffset) {
  MpaStreamEncoder enc({true, true});
  std::size_t total = 0;
  for (int i = 0; i < 10; ++i) {
    const auto f = enc.fpdu(Bytes(97 + i * 31, 0x10));
    EXPECT_EQ(f.size(),
              fpduWireLength(2 + 97 + i * 31 + mpaPadLength(97 + i * 31) + 4, true, total));
    total += f.size();
    EXPECT_EQ(enc.streamOffset(), total);
    EXPECT_EQ(total % 4, 0u);
  }
}

// Bytes to fields: a whole conversation decodes back to the structs that produced it.
TEST(IwarpEncoder, ConversationDecodesBackToItsStructs) {
  for (const bool markers : {false, true}) {
    const auto conv = testing::buildConversation({markers, markers, true, false, 1460, true});
    CaptureDecoder dec;
    std::vector<Dissection> out;
    for (const auto& f : conv.frames)
      out.push_back(dec.decode(f, LinkType::Ethernet));
    const auto& req = out[3];
    ASSERT_NE(req.find("iwarp_mpa.key.req"), nullptr);
    EXPECT_EQ(req.find("iwarp_mpa.key.req")->value, "4d504120494420526571204672616d65");
    EXPECT_EQ(req.find("iwarp_mpa.marker_flag")->value, markers ? "1" : "0");
    EXPECT_EQ(req.find("iwarp_mpa.privatedata")->value, "0102030405");
    EXPECT_EQ(req.summary.protocol, "MPA");
    EXPECT_EQ(req.summary.info, "40000 > 5001 MPA Request Frame");
    EXPECT_NE(out[4].find("iwarp_mpa.key.rep"), nullptr);
    for (std::size_t i = 0; i < conv.messages.size(); ++i) {
      const auto& m = conv.messages[i];
      const auto& d = out[5 + i];
      SCOPED_TRACE("message " + std::to_string(i));
      EXPECT_EQ(d.summary.protocol, "DDP/RDMA");
      EXPECT_EQ(d.crc, CrcStatus::Good);
      EXPECT_FALSE(d.hasErrors());
      for (const auto& diag : d.diagnostics)
        ADD_FAILURE() << diag.message;
      ASSERT_NE(d.find("iwarp_rdma.opcode"), nullptr);
      EXPECT_EQ(d.find("iwarp_rdma.opcode")->number, static_cast<unsigned>(m.header.opcode));
      EXPECT_EQ(d.find("iwarp_ddp.last_flag")->number, m.header.last ? 1u : 0u);
      if (m.header.tagged()) {
        EXPECT_EQ(d.find("iwarp_ddp.stag")->number, m.header.stag);
        EXPECT_EQ(d.find("iwarp_ddp.tagged_offset")->number, m.header.taggedOffset);
      } else {
        EXPECT_EQ(d.find("iwarp_ddp.qn")->number, m.header.queue);
        EXPECT_EQ(d.find("iwarp_ddp.msn")->number, m.header.msn);
        EXPECT_EQ(d.find("iwarp_ddp.mo")->number, m.header.messageOffset);
      }
      if (m.header.opcode == RdmapOpcode::ReadRequest) {
        EXPECT_EQ(d.find("iwarp_rdma.sinkstag")->value, "0xaabbccdd");
        EXPECT_EQ(d.find("iwarp_rdma.rdmardsz")->number, 4096u);
        EXPECT_EQ(d.find("iwarp_rdma.srcto")->value, "0x0000000000002000");
      } else if (m.header.opcode == RdmapOpcode::Terminate) {
        EXPECT_EQ(d.find("iwarp_rdma.term_layer")->number, 1u);
        EXPECT_EQ(d.find("iwarp_rdma.term_etype_ddp")->number, 2u);
        EXPECT_EQ(d.find("iwarp_rdma.term_errcode_ddp_untagged")->number, 1u);
        EXPECT_EQ(d.find("iwarp_rdma.term_ddp_seg_len")->value, "003a");
      } else {
        ASSERT_NE(d.find("data.data"), nullptr);
        std::string hex;
        for (auto b : m.payload) {
          static constexpr char digits[] = "0123456789abcdef";
          hex += digits[b >> 4];
          hex += digits[b & 15];
        }
        EXPECT_EQ(d.find("data.data")->value, hex);
      }
      if (m.header.opcode == RdmapOpcode::SendInvalidate) {
        EXPECT_EQ(d.find("iwarp_rdma.inval_stag")->number, 0x01020304u);
      }
    }
  }
}

}  // namespace
}  // namespace rdmascope::packets
