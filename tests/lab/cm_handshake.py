#!/usr/bin/env python3
"""Checks the rdma_cm handshake in a capture of a `verbs --cm` lab run, with tshark's
InfiniBand CM dissector (rdmascope's own decoder is not used here; tshark is $RDMASCOPE_TSHARK
when set, else the one on PATH, as tests/support/oracle.py finds it):

 - the management datagrams go to destination QP 1 as UD SEND ONLY, and their CM attribute IDs
   are, in capture order (a retransmitted MAD counted once), REQ 0x0010, REP 0x0013, RTU 0x0014,
   DREQ 0x0015, DREP 0x0016;
 - the REQ's and the REP's consumer private data start with rdmascope's "RSC1" (what the
   exchange steps publish: MR address, rkey, length);
 - the data QPs are the ones the CM announced: RC packets to the active side (the REQ's sender)
   carry the REQ's local QPN as destination QP, packets to the passive side the REP's;
 - the PSNs are the ones the CM announced: the passive side's first request carries the REQ's
   starting PSN, the active side's the REP's (Linux's CM gives each side its send PSN so).

It prints the handshake's times from the capture. Usage: cm_handshake.py CAPTURE.pcap
Exit 0: all checks hold; 1: one fails (it says which); 2: tshark is missing or fails.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import oracle  # noqa: E402  (tests/support/oracle.py)

FIELDS = ["frame.time_relative", "ip.src", "ip.dst", "infiniband.bth.opcode",
          "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.mad.attributeid",
          "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn", "infiniband.cm.rep.localqpn",
          "infiniband.cm.rep.startpsn", "infiniband.cm.req.ip_cm.private",
          "infiniband.cm.rep.private"]
NAMES = {0x10: "REQ", 0x13: "REP", 0x14: "RTU", 0x15: "DREQ", 0x16: "DREP", 0x12: "REJ",
         0x11: "MRA"}


def num(text):
    text = text.split(",")[0]
    return int(text, 0) if text else None


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    tshark = oracle.program_path("tshark")
    if not tshark:
        print(f"cm_handshake: missing {oracle.missing_program('tshark')}", file=sys.stderr)
        return 2
    cmd = [tshark, "-r", argv[1], "-T", "fields", "-E", "occurrence=f"]
    cmd += oracle.tshark_disable_args()
    for f in FIELDS:
        cmd += ["-e", f]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"cm_handshake: tshark failed: {e}", file=sys.stderr)
        return 2
    rows = [dict(zip(FIELDS, line.split("\t"))) for line in res.stdout.splitlines()]
    problems = []
    mads, data = [], []
    for r in rows:
        if num(r["infiniband.bth.destqp"]) == 1:
            if num(r["infiniband.bth.opcode"]) != 100:
                problems.append(f"a packet to QP 1 with opcode {r['infiniband.bth.opcode']}")
            mads.append(r)
        elif r["infiniband.bth.opcode"]:
            data.append(r)
    seq = []
    for r in mads:
        name = NAMES.get(num(r["infiniband.mad.attributeid"]) or -1,
                         r["infiniband.mad.attributeid"] or "?")
        if not seq or seq[-1][0] != name:
            seq.append((name, r))
    names = [n for n, _ in seq]
    print("CM messages to QP 1: " + " ".join(names) + f" ({len(mads)} packets)")
    if names != ["REQ", "REP", "RTU", "DREQ", "DREP"]:
        problems.append("the CM messages are not REQ REP RTU DREQ DREP")
        print("\n".join(problems))
        return 1
    at = {n: r for n, r in seq}
    t = {n: float(r["frame.time_relative"]) for n, r in seq}
    print(f"REQ->REP {1000 * (t['REP'] - t['REQ']):.1f} ms, REP->RTU "
          f"{1000 * (t['RTU'] - t['REP']):.1f} ms, REQ->RTU {1000 * (t['RTU'] - t['REQ']):.1f} ms, "
          f"DREQ->DREP {1000 * (t['DREP'] - t['DREQ']):.1f} ms")
    req, rep = at["REQ"], at["REP"]
    for what, field, r in (("REQ", "infiniband.cm.req.ip_cm.private", req),
                           ("REP", "infiniband.cm.rep.private", rep)):
        if not r[field].replace(":", "").lower().startswith("5253433101"):
            problems.append(f"the {what}'s private data does not start with RSC1 and a count of 1: "
                            f"{r[field][:24]}")
    active, passive = req["ip.src"], req["ip.dst"]
    qpn = {active: num(req["infiniband.cm.req.localqpn"]),
           passive: num(rep["infiniband.cm.rep.localqpn"])}
    send_psn = {passive: num(req["infiniband.cm.req.startpsn"]),
                active: num(rep["infiniband.cm.rep.startpsn"])}
    print(f"QPN {qpn[active]:#08x} at {active} (active), {qpn[passive]:#08x} at {passive} "
          f"(passive); send PSNs {send_psn[active]:#08x} and {send_psn[passive]:#08x}")
    first_request = {}
    for r in data:
        dst, src, op = r["ip.dst"], r["ip.src"], num(r["infiniband.bth.opcode"])
        if num(r["infiniband.bth.destqp"]) != qpn.get(dst):
            problems.append(f"an RC packet to {dst} for QP {r['infiniband.bth.destqp']}, "
                            f"not the CM's {qpn.get(dst)}")
        response = op is not None and 13 <= op <= 18
        if not response and src not in first_request:
            first_request[src] = num(r["infiniband.bth.psn"])
    if not data:
        problems.append("no RC packets after the handshake")
    for side, psn in first_request.items():
        if psn != send_psn.get(side):
            problems.append(f"{side}'s first request has PSN {psn:#x}, the CM announced "
                            f"{send_psn.get(side):#x}")
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
