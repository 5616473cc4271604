"""The packet shape of a RoCEv2 capture, compared between real Soft-RoCE (the lab) and the
simulated fabric: per QP flow (sender address, destination QP, numbered in order of first
appearance because QP numbers and addresses differ between runs), the sequence of (opcode,
frame length, PSN minus the flow's first PSN, AckReq), and the sequence of CM messages
(attribute IDs of the MADs to QP 1). Read with tshark, the project's decoding oracle."""
import subprocess

import oracle

CM_NAMES = {0x01: "ClassPortInfo", 0x10: "REQ", 0x11: "MRA", 0x12: "REJ", 0x13: "REP",
            0x14: "RTU", 0x15: "DREQ", 0x16: "DREP", 0x17: "SIDR_REQ", 0x18: "SIDR_REP",
            0x19: "LAP", 0x1a: "APR"}


FIELDS = ["frame.number", "frame.len", "ip.src", "ip.dst", "infiniband.bth.opcode",
          "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a",
          "infiniband.mad.attributeid", "_ws.malformed", "_ws.expert.severity", "frame.protocols"]


def rows(pcap):
    """One dict per frame of the capture with FIELDS (empty strings where absent), from one
    tshark pass."""
    cmd = [oracle.program_path("tshark"), "-n", "-r", pcap]
    cmd += oracle.tshark_disable_args() + ["-T", "fields", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        cols = line.split("\t")
        cols += [""] * (len(FIELDS) - len(cols))
        result.append(dict(zip(FIELDS, cols)))
    return result


RESPONSES = range(13, 19)  # RC READ RESPONSE FIRST..ONLY, ACKNOWLEDGE, ATOMIC ACKNOWLEDGE


def shape(pcap):
    """The shape of a capture file (see shape_of)."""
    return shape_of(rows(pcap))


def shape_of(frames):
    """{"flows": [[(opcode, length, relative psn, ackreq), ...], ...], "cm": [names]}

    A request flow is (sender, destination QP); its PSNs count from its first. Responses
    (ACKs, READ responses, atomic ACKs) carry the requester's PSNs: they form a flow of their
    own, counted from the first PSN of the request flow they answer (the one from their
    destination whose PSNs include theirs)."""
    flows = {}
    order = []
    cm = []
    for r in frames:
        length, src, dst = r["frame.len"], r["ip.src"], r["ip.dst"]
        opcode, destqp, psn = r["infiniband.bth.opcode"], r["infiniband.bth.destqp"], \
            r["infiniband.bth.psn"]
        ackreq, attr = r["infiniband.bth.a"], r["infiniband.mad.attributeid"]
        if not opcode:
            continue
        qp = int(destqp, 16)
        if qp == 1:
            if attr:
                cm.append(CM_NAMES.get(int(attr, 16), attr))
            continue
        op = int(opcode)
        response = (op & 0x1f) in RESPONSES and op < 0x20
        key = (src, qp, response)
        if key not in flows:
            first = int(psn)
            if response:
                for (s2, _, r2), f2 in flows.items():
                    seen = [p[2] for p in f2["packets"]]
                    if s2 == dst and not r2 and ((int(psn) - f2["first"]) & 0xffffff) <= max(seen) + 256:
                        first = f2["first"]
                        break
            flows[key] = {"first": first, "packets": []}
            order.append(key)
        f = flows[key]
        rel = (int(psn) - f["first"]) & 0xffffff
        f["packets"].append((op, int(length), rel, ackreq in ("1", "True")))
    return {"flows": [flows[k]["packets"] for k in order], "cm": cm}


# Documented differences: programs whose packet shape is not compared with the lab's, and why
# (the run itself and its capture are still checked).
NOT_COMPARED = {
    "srq_pingpong": "ibv_srq_pingpong posts on whichever of its QPs a receive completed, so how "
                    "many messages each QP carries, and in all, depends on timing (14 in the "
                    "lab's run, 16 here, for -n 5 -q 4)",
}


def without_resends(shape_):
    """The shape with every packet dropped that repeats an earlier one of its flow (same opcode
    and relative PSN): resends and their duplicate ACKs depend on timing (rxe in the slow qemu
    lab resends where the fabric does not), not on what the program asked for."""
    flows = []
    dropped = 0
    for flow in shape_["flows"]:
        seen = set()
        kept = []
        for p in flow:
            if (p[0], p[2]) in seen:
                dropped += 1
                continue
            seen.add((p[0], p[2]))
            kept.append(p)
        flows.append(kept)
    return {"flows": flows, "cm": shape_["cm"]}, dropped


def differences(lab, fabric, limit=8, name=""):
    """Lines saying where two shapes differ (empty when they agree), resends aside."""
    lab, _ = without_resends(lab)
    fabric, _ = without_resends(fabric)
    out = []
    if name in NOT_COMPARED:
        return []
    if lab["cm"] != fabric["cm"]:
        out.append(f"CM messages: lab {lab['cm']}, fabric {fabric['cm']}")
    if len(lab["flows"]) != len(fabric["flows"]):
        out.append(f"{len(lab['flows'])} QP flows in the lab, {len(fabric['flows'])} on the "
                   "fabric")
    for i, (a, b) in enumerate(zip(lab["flows"], fabric["flows"])):
        if a == b:
            continue
        n = next((j for j, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        out.append(f"flow {i + 1}: {len(a)} packets in the lab, {len(b)} on the fabric; first "
                   f"difference at packet {n + 1}: lab {a[n:n + 1]}, fabric {b[n:n + 1]} "
                   "(opcode, frame length, relative PSN, AckReq)")
        if len(out) >= limit:
            break
    return out
