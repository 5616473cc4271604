#include "link_type_map.h"

#include <pcap/pcap.h>

namespace rdmascope::packets_io {

packets::LinkType linkTypeFromPcap(std::uint32_t linktype) {
  return static_cast<packets::LinkType>(linktype & 0xffff);
}

packets::LinkType linkTypeFromDlt(int dlt) {
  // DLT_RAW differs between platforms (12 or 14); the file format always says 101.
  if (dlt == DLT_RAW || dlt == 12 || dlt == 14) return packets::LinkType::Raw;
  return static_cast<packets::LinkType>(dlt & 0xffff);
}

int dltFromLinkType(packets::LinkType link) {
  if (link == packets::LinkType::Raw) return DLT_RAW;
  return static_cast<int>(link);
}

}  // namespace rdmascope::packets_io
