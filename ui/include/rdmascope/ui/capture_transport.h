#pragma once
/// @file capture_transport.h
/// Which RDMA transport an opened capture carries, so that the toolbar's Transport box follows
/// the capture as Wireshark's layout follows the protocol.

#include <cstddef>

class QComboBox;

namespace rdmascope::ui {

class FrameStore;

enum class CaptureTransport { Unknown, RoceV2Ipv4, RoceV2Ipv6, RoceV1, InfiniBand, Iwarp };

/// The transport of the first RDMA frame among the first `maxFrames` of the store (RoCEv2 over
/// IPv4 or IPv6, RoCEv1, native InfiniBand, iWARP); Unknown when none carries RDMA.
CaptureTransport detectCaptureTransport(const FrameStore& store, std::size_t maxFrames = 512);

/// Selects the box's item for the transport: the item whose data is the sim::WireFormat of a
/// RoCE or InfiniBand transport, for iWARP an item whose text names it. False (the box left as
/// it was) when the box has no such item or the transport is Unknown.
bool selectCaptureTransport(QComboBox& box, CaptureTransport transport);

}  // namespace rdmascope::ui
