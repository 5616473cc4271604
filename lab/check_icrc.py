#!/usr/bin/env python3
"""Checks the RoCEv2 ICRC of every frame of a pcap and summarises the IB opcodes it carries.

Usage: lab/check_icrc.py CAPTURE.pcap [--expect-nak] [--expect-retransmit]
                         [--expect-opcodes NAME,NAME...]

The ICRC is CRC-32 (zlib's) over 8 bytes of 0xFF, the IP header with its variant fields
(IPv4 TOS, TTL, header checksum; IPv6 traffic class, flow label, hop limit) set to ones,
the UDP header with its checksum set to ones, the BTH with byte 4 set to ones, and the rest up
to the ICRC, which is stored little-endian after the payload. Exit status 0 when every RoCEv2
frame checks out (and the expectations hold), 1 otherwise.
"""
import struct
import sys
import zlib
from collections import Counter

OPCODES = {
    0x00: "SEND_FIRST", 0x01: "SEND_MIDDLE", 0x02: "SEND_LAST", 0x03: "SEND_LAST_IMM",
    0x04: "SEND_ONLY", 0x05: "SEND_ONLY_IMM", 0x06: "WRITE_FIRST", 0x07: "WRITE_MIDDLE",
    0x08: "WRITE_LAST", 0x09: "WRITE_LAST_IMM", 0x0A: "WRITE_ONLY", 0x0B: "WRITE_ONLY_IMM",
    0x0C: "READ_REQUEST", 0x0D: "READ_RESPONSE_FIRST", 0x0E: "READ_RESPONSE_MIDDLE",
    0x0F: "READ_RESPONSE_LAST", 0x10: "READ_RESPONSE_ONLY", 0x11: "ACKNOWLEDGE",
    0x12: "ATOMIC_ACKNOWLEDGE", 0x13: "COMPARE_SWAP", 0x14: "FETCH_ADD",
    0x16: "SEND_LAST_INVAL", 0x17: "SEND_ONLY_INVAL",
}
AETH_OPCODES = {0x0D, 0x0F, 0x10, 0x11, 0x12}
ROCEV2_PORT = 4791


def opcode_name(opcode):
    """RC names as they are, UC and UD ones prefixed (e.g. UC_SEND_ONLY, UD_SEND_ONLY_IMM)."""
    prefix = {0: "", 1: "UC_", 3: "UD_"}.get(opcode >> 5)
    if prefix is None or (opcode & 0x1F) not in OPCODES:
        return f"0x{opcode:02x}"
    return prefix + OPCODES[opcode & 0x1F]


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError(f"{path}: too short for a pcap file header")
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        raise ValueError(f"{path}: not a pcap file (magic {magic.hex()})")
    linktype = struct.unpack(endian + "I", data[20:24])[0]
    if linktype != 1:
        raise ValueError(f"{path}: link type {linktype}, expected Ethernet (1)")
    off = 24
    while off + 16 <= len(data):
        _, _, caplen, origlen = struct.unpack(endian + "IIII", data[off:off + 16])
        off += 16
        yield data[off:off + caplen], origlen
        off += caplen


def icrc_of(frame):
    """Returns (opcode, dest_qp, psn, aeth_syndrome, stored, computed) or None if not RoCEv2."""
    eth_type = struct.unpack("!H", frame[12:14])[0]
    l3 = 14
    while eth_type in (0x8100, 0x88A8):
        eth_type = struct.unpack("!H", frame[l3 + 2:l3 + 4])[0]
        l3 += 4
    if eth_type == 0x0800:
        ihl = (frame[l3] & 0x0F) * 4
        if frame[l3 + 9] != 17:
            return None
        ip = bytearray(frame[l3:l3 + ihl])
        ip[1] = 0xFF
        ip[8] = 0xFF
        ip[10:12] = b"\xff\xff"
        total = struct.unpack("!H", frame[l3 + 2:l3 + 4])[0]
        end = l3 + total
        l4 = l3 + ihl
    elif eth_type == 0x86DD:
        if frame[l3 + 6] != 17:
            return None
        ip = bytearray(frame[l3:l3 + 40])
        ip[0] = (ip[0] & 0xF0) | 0x0F
        ip[1:4] = b"\xff\xff\xff"
        ip[7] = 0xFF
        end = l3 + 40 + struct.unpack("!H", frame[l3 + 4:l3 + 6])[0]
        l4 = l3 + 40
    else:
        return None
    if struct.unpack("!H", frame[l4 + 2:l4 + 4])[0] != ROCEV2_PORT:
        return None
    if end > len(frame):
        raise ValueError("truncated frame")
    udp = bytearray(frame[l4:l4 + 8])
    udp[6:8] = b"\xff\xff"
    bth = bytearray(frame[l4 + 8:l4 + 20])
    opcode = bth[0]
    dest_qp = struct.unpack("!I", b"\0" + bytes(bth[5:8]))[0]
    psn = struct.unpack("!I", b"\0" + bytes(bth[9:12]))[0]
    bth[4] = 0xFF
    rest = frame[l4 + 20:end - 4]
    syndrome = rest[0] if (opcode & 0x1F) in AETH_OPCODES and (opcode >> 5) == 0 else None
    stored = struct.unpack("<I", frame[end - 4:end])[0]
    computed = zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(bth) + rest)
    return opcode, dest_qp, psn, syndrome, stored, computed


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    path, expect_nak, expect_retransmit, expect_ops = argv[0], False, False, []
    rest = argv[1:]
    while rest:
        if rest[0] == "--expect-nak":
            expect_nak = True
            rest = rest[1:]
        elif rest[0] == "--expect-retransmit":
            expect_retransmit = True
            rest = rest[1:]
        elif rest[0] == "--expect-opcodes" and len(rest) > 1:
            expect_ops = [x for x in rest[1].split(",") if x]
            rest = rest[2:]
        else:
            print(f"check_icrc: unknown argument '{rest[0]}'", file=sys.stderr)
            return 2
    frames = good = bad = 0
    ops = Counter()
    naks = Counter()
    seen = set()
    retransmits = 0
    try:
        for frame, origlen in read_pcap(path):
            frames += 1
            if len(frame) != origlen:
                print(f"frame {frames}: captured {len(frame)} of {origlen} bytes", file=sys.stderr)
                bad += 1
                continue
            r = icrc_of(frame)
            if r is None:
                continue
            opcode, dest_qp, psn, syndrome, stored, computed = r
            name = opcode_name(opcode)
            ops[name] += 1
            if stored == computed:
                good += 1
            else:
                bad += 1
                print(f"frame {frames}: {name} psn {psn}: ICRC 0x{stored:08x}, computed 0x{computed:08x}",
                      file=sys.stderr)
            if syndrome is not None and (syndrome >> 5) == 3:
                naks[{0: "PSN_SEQUENCE_ERROR", 1: "INVALID_REQUEST", 2: "REMOTE_ACCESS_ERROR",
                      3: "REMOTE_OPERATIONAL_ERROR", 4: "INVALID_RD_REQUEST"}.get(syndrome & 0x1F, "OTHER")] += 1
            if syndrome is None:
                key = (dest_qp, psn, opcode)
                if key in seen:
                    retransmits += 1
                seen.add(key)
    except (OSError, ValueError, IndexError, struct.error) as e:
        print(f"check_icrc: {path}: {e}", file=sys.stderr)
        return 1
    print(f"frames {frames} rocev2 {good + bad} icrc_ok {good} icrc_bad {bad} "
          f"retransmitted {retransmits} naks {sum(naks.values())}")
    for name, n in sorted(ops.items()):
        print(f"  {name} {n}")
    for name, n in sorted(naks.items()):
        print(f"  NAK {name} {n}")
    ok = bad == 0 and good > 0
    if good == 0:
        print("check_icrc: no RoCEv2 frame in the capture", file=sys.stderr)
    if expect_nak and not naks:
        print("check_icrc: expected a NAK, found none", file=sys.stderr)
        ok = False
    if expect_retransmit and retransmits == 0:
        print("check_icrc: expected a retransmitted packet, found none", file=sys.stderr)
        ok = False
    for op in expect_ops:
        if ops[op] == 0:
            print(f"check_icrc: expected {op}, found none", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
