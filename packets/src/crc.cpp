#include "rdmascope/packets/crc.h"

#include <isa-l/crc.h>
#include <isa-l/crc64.h>

namespace rdmascope::packets {

std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t previous) {
  return crc32_gzip_refl(previous, bytes.data(), bytes.size());
}

std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t previous) {
  // ISA-L's crc32_iscsi takes and returns the raw register (no final inversion).
  const auto reg = crc32_iscsi(const_cast<std::uint8_t*>(bytes.data()),
                               static_cast<int>(bytes.size()), ~previous);
  return ~reg;
}

std::uint64_t crc64(std::span<const std::uint8_t> bytes, std::uint64_t previous) {
  return crc64_ecma_refl(previous, bytes.data(), bytes.size());
}

}  // namespace rdmascope::packets
