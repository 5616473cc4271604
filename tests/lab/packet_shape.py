#!/usr/bin/env python3
"""Compares the shape of two RoCEv2 captures (a real rxe run and the simulator's run of the
same scenario): per packet, which side sent it, the BTH opcode, the payload length, the PSN
relative to the first request PSN of the requester (responses carry the requester's PSN), and for ACKs/NAKs the AETH syndrome.

Ignored, because they legitimately differ between runs: QPNs and initial PSNs (chosen at random
by rxe; PSNs are compared relative to each side's first one), MAC and IP addresses, the UDP
source port (rxe derives it from the QPN), the IP identification, timestamps, and the AETH
credit count and MSN (an ACK's syndrome is compared as "ACK"; NAK and RNR NAK syndromes are
compared in full). Frames that are not RoCEv2 (UDP port 4791) are skipped, and so are the
management datagrams to destination QP 1 (the rdma_cm's REQ/REP/RTU/DREQ/DREP of a `verbs --cm`
run): the simulator connects its QPs without a CM, and those packets are checked with tshark by
run_lab_cli_test.sh instead.

Usage: packet_shape.py REAL.pcap SIM.pcap     exit 0: same shape; 1: differs; 2: bad input
       packet_shape.py --show FILE.pcap       print one capture's shape
"""
import struct
import sys

# Bytes of extension headers after the BTH, by opcode (IBTA vol. 1, table 38).
RC_EXT = {0: 0, 1: 0, 2: 0, 3: 4, 4: 0, 5: 4, 6: 16, 7: 0, 8: 0, 9: 4, 10: 16, 11: 20,
          12: 16, 13: 4, 14: 0, 15: 4, 16: 4, 17: 4, 18: 12, 19: 28, 20: 28, 22: 4, 23: 4}
UC_EXT = {0: 0, 1: 0, 2: 0, 3: 4, 4: 0, 5: 4, 6: 16, 7: 0, 8: 0, 9: 4, 10: 16, 11: 20}
UD_EXT = {4: 8, 5: 12}
NAMES = {0: "SEND_FIRST", 1: "SEND_MIDDLE", 2: "SEND_LAST", 3: "SEND_LAST_IMM", 4: "SEND_ONLY",
         5: "SEND_ONLY_IMM", 6: "WRITE_FIRST", 7: "WRITE_MIDDLE", 8: "WRITE_LAST",
         9: "WRITE_LAST_IMM", 10: "WRITE_ONLY", 11: "WRITE_ONLY_IMM", 12: "READ_REQUEST",
         13: "READ_RESPONSE_FIRST", 14: "READ_RESPONSE_MIDDLE", 15: "READ_RESPONSE_LAST",
         16: "READ_RESPONSE_ONLY", 17: "ACK", 18: "ATOMIC_ACK", 19: "CMP_SWAP", 20: "FETCH_ADD",
         22: "SEND_LAST_INV", 23: "SEND_ONLY_INV"}
AETH_OPS = {13, 15, 16, 17, 18}


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        raise ValueError(f"{path}: not a pcap file")
    magic = data[:4]
    endian = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    if magic not in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        raise ValueError(f"{path}: not a classic pcap file (magic {magic.hex()})")
    link = struct.unpack(endian + "I", data[20:24])[0]
    if link != 1:
        raise ValueError(f"{path}: link type {link}, expected Ethernet (1)")
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        yield data[off + 16:off + 16 + incl]
        off += 16 + incl


def shape(path):
    rows, first_psn, sides = [], {}, []
    for n, fr in enumerate(frames(path), 1):
        if len(fr) < 14:
            continue
        eth = struct.unpack(">H", fr[12:14])[0]
        p = 14
        if eth == 0x8100:
            eth, p = struct.unpack(">H", fr[16:18])[0], 18
        if eth == 0x0800:
            ihl = (fr[p] & 0xF) * 4
            if fr[p + 9] != 17:
                continue
            src, udp = fr[p + 12:p + 16], p + ihl
        elif eth == 0x86DD:
            if fr[p + 6] != 17:
                continue
            src, udp = fr[p + 8:p + 24], p + 40
        else:
            continue
        dport, ulen = struct.unpack(">HH", fr[udp + 2:udp + 6])
        if dport != 4791:
            continue
        bth = udp + 8
        if struct.unpack(">I", fr[bth + 4:bth + 8])[0] & 0xFFFFFF == 1:
            continue  # a CM MAD (GSI, QP 1)
        op, pad = fr[bth], (fr[bth + 1] >> 4) & 3
        psn = struct.unpack(">I", fr[bth + 8:bth + 12])[0] & 0xFFFFFF
        kind, low = op >> 5, op & 0x1F
        ext = {0: RC_EXT, 1: UC_EXT, 3: UD_EXT}.get(kind, {}).get(low)
        if ext is None:
            raise ValueError(f"{path}: frame {n}: unknown opcode {op}")
        payload = ulen - 8 - 12 - ext - 4 - pad
        if src not in sides:
            sides.append(src)
        side = "first" if src == sides[0] else "second"
        other = "second" if side == "first" else "first"
        response = kind == 0 and 13 <= low <= 18
        # A request counts from its sender's first request PSN; a response (ACK, READ
        # RESPONSE, ATOMIC ACK) carries the requester's PSN, so it counts from the peer's.
        if not response:
            first_psn.setdefault(side, psn)
        base = first_psn.get(other if response else side)
        rel = "?" if base is None else (psn - base) % (1 << 24)
        aeth = ""
        if kind == 0 and low in AETH_OPS:
            syn = fr[bth + 12]
            aeth = {0: "ACK", 1: f"RNR_NAK({syn & 0x1F})", 3: f"NAK({syn & 0x1F})"}.get(
                syn >> 5, f"RESERVED({syn})")
        name = {0: "RC", 1: "UC", 3: "UD"}[kind] + " " + NAMES.get(low, str(low))
        rows.append((side, name, payload, rel, aeth))
    return rows


def fmt(r):
    return f"{r[0]:6} {r[1]:26} len {r[2]:5} psn +{r[3]:<6} {r[4]}".rstrip()


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "--show":
            for r in shape(argv[2]):
                print(fmt(r))
            return 0
        if len(argv) != 3:
            print(__doc__.strip().splitlines()[-2], file=sys.stderr)
            return 2
        real, simulated = shape(argv[1]), shape(argv[2])
    except (OSError, ValueError, IndexError, struct.error) as e:
        print(f"packet_shape: {e}", file=sys.stderr)
        return 2
    same = real == simulated
    print(f"{'#':>3}  {'real rxe':58} | simulator")
    for i in range(max(len(real), len(simulated))):
        a = fmt(real[i]) if i < len(real) else "-"
        b = fmt(simulated[i]) if i < len(simulated) else "-"
        print(f"{i + 1:>3}{' ' if a == b else '*'} {a:58} | {b}")
    print("same shape" if same else f"shape differs ({len(real)} real, {len(simulated)} simulated packets)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
