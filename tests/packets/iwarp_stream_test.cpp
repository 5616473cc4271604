// CaptureDecoder's TCP reassembly and MPA stream decoding: FPDUs split across segments and
// several per segment, segments out of order, duplicated and overlapping, markers across
// segment boundaries, and CRC corruption localised to the frame that completes the FPDU.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "iwarp_conversation.h"
#include "rdmascope/packets/iwarp_headers.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::packets {
namespace {

using testing::buildConversation;
using testing::Conversation;
using testing::ConversationSpec;
using Frames = std::vector<std::vector<std::uint8_t>>;

std::vector<Dissection> decodeAll(const Frames& frames) {
  CaptureDecoder dec;
  std::vector<Dissection> out;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    FrameInfo info;
    info.number = i + 1;
    out.push_back(dec.decode(frames[i], LinkType::Ethernet, info));
  }
  return out;
}

// Opcodes decoded per sending port, in decoding order.
std::map<std::uint64_t, std::vector<std::uint64_t>> opcodesBySender(
    const std::vector<Dissection>& ds) {
  std::map<std::uint64_t, std::vector<std::uint64_t>> out;
  for (const auto& d : ds) {
    const auto* port = d.find("tcp.srcport");
    for (const auto* op : d.findAll("iwarp_rdma.opcode"))
      out[port->number].push_back(op->number);
  }
  return out;
}

std::map<std::uint64_t, std::vector<std::uint64_t>> expectedOpcodes(const Conversation& c) {
  std::map<std::uint64_t, std::vector<std::uint64_t>> out;
  for (const auto& m : c.messages)
    out[m.fromClient ? 40000 : 5001].push_back(static_cast<std::uint64_t>(m.header.opcode));
  return out;
}

// Every FPDU decoded once, with a good CRC and without errors or warnings.
void expectClean(const Conversation& c, const std::vector<Dissection>& ds) {
  EXPECT_EQ(opcodesBySender(ds), expectedOpcodes(c));
  std::size_t crcs = 0;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    EXPECT_NE(ds[i].crc, CrcStatus::Bad) << "frame " << i + 1;
    crcs += ds[i].findAll("iwarp_mpa.crc_check").size();
    for (const auto& diag : ds[i].diagnostics)
      EXPECT_EQ(diag.severity, Severity::Note) << "frame " << i + 1 << ": " << diag.message;
  }
  EXPECT_EQ(crcs, c.messages.size());
}

std::size_t markerCount(const std::vector<Dissection>& ds) {
  std::size_t n = 0;
  for (const auto& d : ds)
    n += d.findAll("iwarp_mpa.marker_fpduptr").size();
  return n;
}

// Markers a direction's FPDU bytes must carry: one at every multiple of 512 from its start.
std::size_t expectedMarkers(const Conversation& c, bool markers) {
  if (!markers) return 0;
  const std::size_t client = c.clientStream.size() - 25, server = c.serverStream.size() - 20;
  return (client + 511) / 512 + (server + 511) / 512;
}

class IwarpSegmentation : public ::testing::TestWithParam<std::tuple<std::size_t, bool>> {};

TEST_P(IwarpSegmentation, SplitAndCoalescedFpdusDecodeOnce) {
  const auto [mss, markers] = GetParam();
  const auto c = buildConversation({markers, markers, true, false, mss, false});
  const auto ds = decodeAll(c.frames);
  expectClean(c, ds);
  EXPECT_EQ(markerCount(ds), expectedMarkers(c, markers));
  std::size_t maxPerFrame = 0;
  for (const auto& d : ds)
    maxPerFrame = std::max(maxPerFrame, d.findAll("iwarp_ddp").size());
  if (mss >= 2000) {
    EXPECT_GE(maxPerFrame, 3u) << "several FPDUs in one segment";
  }
}

INSTANTIATE_TEST_SUITE_P(Mss, IwarpSegmentation,
                         ::testing::Combine(::testing::Values(1, 7, 97, 512, 1460, 9000),
                                            ::testing::Bool()));

TEST(IwarpStream, SplitFpduIsDissectedInTheFrameThatCompletesIt) {
  const auto c = buildConversation({false, false, true, false, 200, false});
  const auto ds = decodeAll(c.frames);
  // Frames 6.. carry the client's FPDUs: Send (124 bytes) then Write (1224 bytes) across
  // frames 6 to 12.
  ASSERT_EQ(ds[5].findAll("iwarp_rdma.opcode").size(), 1u);
  EXPECT_EQ(ds[6].findAll("iwarp_rdma.opcode").size(), 0u);
  const auto* seg = ds[6].find("tcp.segment_data");
  ASSERT_NE(seg, nullptr);
  EXPECT_EQ(seg->length, 200u);
  const auto& done = ds[11];
  ASSERT_NE(done.find("iwarp_ddp.stag"), nullptr);
  EXPECT_EQ(done.find("iwarp_ddp.stag")->value, "0x12345678");
  // The header lies in earlier frames: shown with length 0; the CRC lies in this one.
  EXPECT_EQ(done.find("iwarp_ddp.stag")->length, 0u);
  const auto* crc = done.find("iwarp_mpa.crc_check");
  ASSERT_NE(crc, nullptr);
  EXPECT_EQ(crc->length, 4u);
  EXPECT_LT(crc->offset + 4, done.frameLength + 1);
}

TEST(IwarpStream, OutOfOrderSegmentsAreHeldAndReassembled) {
  for (const bool markers : {false, true}) {
    auto c = buildConversation({markers, markers, true, false, 100, false});
    // Swap neighbouring data segments and reverse a run of six.
    for (std::size_t i = 6; i + 1 < c.frames.size(); i += 4)
      std::swap(c.frames[i], c.frames[i + 1]);
    std::reverse(c.frames.begin() + 20, c.frames.begin() + 26);
    const auto ds = decodeAll(c.frames);
    expectClean(c, ds);
    EXPECT_EQ(markerCount(ds), expectedMarkers(c, markers));
    bool held = false;
    for (const auto& d : ds)
      for (const auto& diag : d.diagnostics)
        held |= diag.message.find("out of order") != std::string::npos;
    EXPECT_TRUE(held);
  }
}

TEST(IwarpStream, RetransmissionsAreNotDecodedTwice) {
  auto c = buildConversation({true, true, true, false, 150, false});
  Frames frames;
  for (std::size_t i = 0; i < c.frames.size(); ++i) {
    frames.push_back(c.frames[i]);
    if (i >= 3 && i % 3 == 0) frames.push_back(c.frames[i]);
  }
  frames.push_back(c.frames[7]);
  frames.push_back(c.frames[3]);  // the MPA Request again, at the end
  const auto ds = decodeAll(frames);
  expectClean(c, ds);
  std::size_t retrans = 0;
  for (const auto& d : ds)
    for (const auto& diag : d.diagnostics)
      retrans += diag.message.find("retransmission") != std::string::npos;
  EXPECT_GE(retrans, c.frames.size() / 3 - 1);
}

// Re-segments both byte streams into overlapping segments: each repeats the last `overlap`
// bytes of the one before.
Frames overlappingFrames(const Conversation& c, std::size_t size, std::size_t overlap) {
  Frames frames(c.frames.begin(), c.frames.begin() + 3);
  const auto client = testing::clientEndpoint(), server = testing::serverEndpoint();
  auto cut = [&](const std::vector<std::uint8_t>& stream, std::size_t from, std::size_t to,
                 bool fromClient) {
    for (std::size_t at = from; at < to;) {
      const std::size_t n = std::min(size, to - at);
      TcpSegmentSpec s;
      s.src = fromClient ? client : server;
      s.dst = fromClient ? server : client;
      s.seq = (fromClient ? testing::kClientIsn : testing::kServerIsn) + 1 +
              static_cast<std::uint32_t>(at);
      frames.push_back(buildTcpFrame(s, std::span(stream).subspan(at, n)));
      if (at + n == to) break;
      at += n - overlap;
    }
  };
  cut(c.clientStream, 0, 25, true);
  cut(c.serverStream, 0, 20, false);
  cut(c.clientStream, 25, c.clientStream.size(), true);
  cut(c.serverStream, 20, c.serverStream.size(), false);
  return frames;
}

TEST(IwarpStream, OverlappingSegmentsAreTrimmed) {
  for (const bool markers : {false, true}) {
    const auto c = buildConversation({markers, markers, true, false, 1460, true});
    const auto ds = decodeAll(overlappingFrames(c, 180, 60));
    expectClean(c, ds);
    EXPECT_EQ(markerCount(ds), expectedMarkers(c, markers));
  }
}

TEST(IwarpStream, CorruptingOneByteMakesExactlyThatFramesCrcBad) {
  const auto c = buildConversation({true, true, true, false, 1460, true});
  const auto clean = decodeAll(c.frames);
  // Frame 7 carries the Write (markers inside), frame 9 the Read Response (a marker sits in
  // front of its CRC).
  for (const std::size_t target : {6u, 8u}) {
    const auto* len = clean[target].find("iwarp_mpa.ulpdulength");
    ASSERT_NE(len, nullptr);
    const std::size_t payloadStart = 14 + 20 + 20;
    for (std::size_t at = payloadStart; at < c.frames[target].size(); ++at) {
      // ULPDU_Length frames the stream: corrupting it desynchronises everything after it,
      // as in any MPA receiver, so it is left out.
      if (at == len->offset || at == len->offset + 1u) continue;
      auto frames = c.frames;
      frames[target][at] ^= 0x01;
      const auto ds = decodeAll(frames);
      for (std::size_t i = 0; i < ds.size(); ++i)
        ASSERT_EQ(ds[i].crc == CrcStatus::Bad, i == target)
            << "flipped byte " << at << " of frame " << target + 1 << ", frame " << i + 1;
      bool named = false;
      for (const auto& diag : ds[target].diagnostics)
        named |= diag.severity == Severity::Error &&
                 diag.message.find("CRC32c mismatch: computed 0x") != std::string::npos;
      ASSERT_TRUE(named);
    }
  }
}

TEST(IwarpStream, CrcNotNegotiatedIsNotChecked) {
  auto c = buildConversation({false, false, false, false, 1460, true});
  c.frames[7][60] ^= 0xff;
  const auto ds = decodeAll(c.frames);
  for (const auto& d : ds)
    EXPECT_EQ(d.crc, CrcStatus::Absent);
  EXPECT_EQ(ds[7].find("iwarp_mpa.crc")->value, "0x00000000");
}

TEST(IwarpStream, WithoutTheMpaStartFramesTheStreamIsTcpData) {
  const auto c = buildConversation({false, false, true, false, 1460, true});
  Frames frames(c.frames.begin() + 5, c.frames.end());
  const auto ds = decodeAll(frames);
  for (const auto& d : ds) {
    EXPECT_EQ(d.find("iwarp_mpa"), nullptr);
    EXPECT_NE(d.find("data.data"), nullptr);
    EXPECT_EQ(d.summary.protocol, "TCP");
  }
}

TEST(IwarpStream, RejectedReplyStopsMpaDecoding) {
  auto c = buildConversation({false, false, true, false, 1460, true});
  auto reply = c.frames[4];
  reply[14 + 20 + 20 + 16] |= 0x20;  // R flag of the Reply (TCP checksum left stale)
  Frames frames(c.frames.begin(), c.frames.end());
  frames[4] = reply;
  const auto ds = decodeAll(frames);
  EXPECT_EQ(ds[4].find("iwarp_mpa.rej_flag")->value, "1");
  for (std::size_t i = 5; i < ds.size(); ++i)
    EXPECT_EQ(ds[i].find("iwarp_ddp"), nullptr);
}

TEST(IwarpStream, Ipv6ConversationsDecode) {
  const auto c = buildConversation({true, false, true, true, 333, false});
  expectClean(c, decodeAll(c.frames));
}

TEST(IwarpStream, ANewSynRestartsTheConnection) {
  const auto first = buildConversation({true, true, true, false, 1460, true});
  auto second = buildConversation({false, false, true, false, 700, false});
  // The same 4-tuple again with other initial sequence numbers.
  TcpConversation tcp(testing::clientEndpoint(), testing::serverEndpoint(), 12345, 67890);
  Frames frames = first.frames;
  for (auto& f : tcp.handshake())
    frames.push_back(f);
  using Side = TcpConversation::Side;
  for (auto& f : tcp.send(Side::Client, std::span(second.clientStream).first(25), 1460))
    frames.push_back(f);
  for (auto& f : tcp.send(Side::Server, std::span(second.serverStream).first(20), 1460))
    frames.push_back(f);
  for (auto& f : tcp.send(Side::Client, std::span(second.clientStream).subspan(25), 700))
    frames.push_back(f);
  for (auto& f : tcp.send(Side::Server, std::span(second.serverStream).subspan(20), 700))
    frames.push_back(f);
  const auto ds = decodeAll(frames);
  std::size_t good = 0;
  for (const auto& d : ds) {
    EXPECT_NE(d.crc, CrcStatus::Bad);
    good += d.findAll("iwarp_mpa.crc_check").size();
  }
  EXPECT_EQ(good, first.messages.size() + second.messages.size());
}

TEST(IwarpStream, ConnectionsAreIndependent) {
  const auto a = buildConversation({true, true, true, false, 300, false});
  auto b = buildConversation({false, false, true, true, 1460, true});
  Frames mixed;
  for (std::size_t i = 0; i < std::max(a.frames.size(), b.frames.size()); ++i) {
    if (i < a.frames.size()) mixed.push_back(a.frames[i]);
    if (i < b.frames.size()) mixed.push_back(b.frames[i]);
  }
  CaptureDecoder dec;
  std::size_t fpdus = 0;
  for (const auto& f : mixed) {
    const auto d = dec.decode(f, LinkType::Ethernet);
    EXPECT_NE(d.crc, CrcStatus::Bad);
    fpdus += d.findAll("iwarp_mpa.crc_check").size();
  }
  EXPECT_EQ(fpdus, a.messages.size() + b.messages.size());
  EXPECT_EQ(dec.connectionCount(), 2u);
  dec.reset();
  EXPECT_EQ(dec.connectionCount(), 0u);
}

}  // namespace
}  // namespace rdmascope::packets
