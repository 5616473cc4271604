#include "rdmascope/ui/capture_transport.h"

#include <QComboBox>

#include "rdmascope/sim/network.h"
#include "rdmascope/ui/dissection_cache.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

namespace {

CaptureTransport transportOf(const packets::Dissection& d) {
  bool udp = false, ipv6 = false, bth = false, grh = false, lrh = false;
  for (const auto& n : d.nodes) {
    const std::string_view k = n.key;
    if (k.starts_with("iwarp_ddp") || k.starts_with("iwarp_mpa") || k.starts_with("iwarp_rdma"))
      return CaptureTransport::Iwarp;
    if (k == "udp") udp = true;
    if (k == "ipv6") ipv6 = true;
    if (k == "infiniband.bth") bth = true;
    if (k == "infiniband.grh") grh = true;
    if (k == "infiniband.lrh") lrh = true;
  }
  if (lrh) return CaptureTransport::InfiniBand;
  if (bth && udp) return ipv6 ? CaptureTransport::RoceV2Ipv6 : CaptureTransport::RoceV2Ipv4;
  if (bth && grh) return CaptureTransport::RoceV1;
  return CaptureTransport::Unknown;
}

}  // namespace

CaptureTransport detectCaptureTransport(const FrameStore& store, std::size_t maxFrames) {
  // The cache keeps the TCP stream state that iWARP's MPA framing needs.
  DissectionCache cache(&store, 64);
  const std::size_t n = std::min(store.size(), maxFrames);
  for (std::size_t f = 0; f < n; ++f) {
    const auto t = transportOf(*cache.get(f));
    if (t != CaptureTransport::Unknown) return t;
  }
  return CaptureTransport::Unknown;
}

bool selectCaptureTransport(QComboBox& box, CaptureTransport transport) {
  int index = -1;
  auto byFormat = [&box](sim::WireFormat f) { return box.findData(static_cast<int>(f)); };
  switch (transport) {
    case CaptureTransport::RoceV2Ipv4:
      index = byFormat(sim::WireFormat::RoceV2Ipv4);
      break;
    case CaptureTransport::RoceV2Ipv6:
      index = byFormat(sim::WireFormat::RoceV2Ipv6);
      break;
    case CaptureTransport::RoceV1:
      index = byFormat(sim::WireFormat::RoceV1);
      break;
    case CaptureTransport::InfiniBand:
      index = byFormat(sim::WireFormat::InfiniBand);
      break;
    case CaptureTransport::Iwarp:
      index = box.findText(QStringLiteral("iWARP"), Qt::MatchContains);
      break;
    case CaptureTransport::Unknown:
      break;
  }
  if (index < 0) return false;
  box.setCurrentIndex(index);
  return true;
}

}  // namespace rdmascope::ui
