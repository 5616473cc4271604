#pragma once
// Between pcap LINKTYPE_* values (in files) and libpcap's DLT_* values (in its API).

#include <cstdint>

#include "rdmascope/packets/decode.h"

namespace rdmascope::packets_io {

/// A LINKTYPE_* value from a pcap file header.
packets::LinkType linkTypeFromPcap(std::uint32_t linktype);
/// A DLT_* value from pcap_datalink().
packets::LinkType linkTypeFromDlt(int dlt);
/// The DLT_* value libpcap wants for a link type.
int dltFromLinkType(packets::LinkType link);

}  // namespace rdmascope::packets_io
