#pragma once
/// @file crc.h
/// CRCs used by RDMA wire formats, computed with ISA-L.

#include <cstdint>
#include <span>

namespace rdmascope::packets {

/// CRC-32 with zlib's polynomial and conventions (as the InfiniBand ICRC uses), continuing
/// from a previous value (0 to start).
std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t previous = 0);

/// CRC32c (Castagnoli; as MPA uses), continuing from a previous value (0 to start).
std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t previous = 0);

/// CRC-64 (ECMA-182, reflected), continuing from a previous value (0 to start): a fast 64-bit
/// fingerprint of a frame's bytes (the flow analysis tells a duplicate from a resend by it).
std::uint64_t crc64(std::span<const std::uint8_t> bytes, std::uint64_t previous = 0);

}  // namespace rdmascope::packets
