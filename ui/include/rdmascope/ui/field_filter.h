#pragma once
/// @file field_filter.h
/// Display filters built from what the user right-clicked, as Wireshark's "Apply as Filter" and
/// "Prepare as Filter" build them: a detail-tree field becomes `key == value`, a packet-list
/// cell the filter of its column. Every filter returned compiles and matches the frame it was
/// built from.

#include <QString>
#include <cstddef>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::ui {

/// The filter selecting a node's value: `key == value` (the value as tshark prints it, quoted
/// when it is text), or the bare key for a protocol or header row and for values no literal can
/// express. Empty when the node has no key.
QString filterForNode(const packets::Dissection& dissection, std::size_t node);

/// The field key a packet-list column stands for in this frame (frame.number, frame.len, the
/// address field shown as Source or Destination, the innermost protocol's key); empty when the
/// column has none (Info).
QString fieldKeyForColumn(const packets::Dissection& dissection, int column);

/// The filter for a packet-list cell: `frame.number == N`, `frame.len == N`, `ip.src == ...`,
/// the protocol's key, and so on; empty when the column has no filter (Info). `frameNumber` is
/// 1-based, `length` the frame's wire length.
QString filterForColumn(const packets::Dissection& dissection, int column, std::size_t frameNumber,
                        std::size_t length);

}  // namespace rdmascope::ui
