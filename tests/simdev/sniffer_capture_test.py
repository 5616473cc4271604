#!/usr/bin/env python3
"""A verbs sniffer capture on the simulated device against the fabric's own capture.

Starts `rdmascope-cli fabric --pcap`, attaches `rdmascope-cli capture -i rdmascope0` as a sniffer
of host 2 (`exec --sniff`: a raw-packet QP with an IBV_FLOW_ATTR_SNIFFER flow), runs Debian's
unmodified ib_write_bw between hosts 1 and 2, stops the capture with SIGINT and checks:

- full: the sniffer's pcapng holds, frame for frame (bytes and time stamps), the fabric's pcap
  restricted to host 2's port (frames from or to its MAC); it reports 0 dropped on stderr and
  in its interface statistics block; its interface block says the timestamps are hardware ones;
  the capture decoded the frames as they came.
- small: with --rq-depth 2 the receive queue overruns: the drop count reported (stderr and
  isb_ifdrop) equals the frames missing from the sniffer's capture, what it kept is the port's
  frames in order with those missing, and `analyze` flags the PSN gaps as capture loss.
"""
import argparse
import os
import re
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import oracle  # noqa: E402
from tcp_ports import tcp_listening  # noqa: E402

HOST2_MAC = bytes([0x02, 0x00, 0x0A, 0x09, 0x00, 0x02])
PORT = 18515


need = oracle.need


def read_pcap(path):
    """(frames, None) of a classic pcap with nanosecond time stamps: [(ns, bytes)]."""
    with open(path, "rb") as f:
        data = f.read()
    magic, = struct.unpack_from("<I", data, 0)
    assert magic == 0xA1B23C4D, f"{path}: not a nanosecond pcap"
    out, at = [], 24
    while at + 16 <= len(data):
        sec, nsec, incl, _orig = struct.unpack_from("<IIII", data, at)
        out.append((sec * 1_000_000_000 + nsec, data[at + 16:at + 16 + incl]))
        at += 16 + incl
    return out


def options(body):
    """The options of a pcapng block body: {code: [value, ...]}."""
    found, at = {}, 0
    while at + 4 <= len(body):
        code, length = struct.unpack_from("<HH", body, at)
        if code == 0:
            break
        found.setdefault(code, []).append(body[at + 4:at + 4 + length])
        at += 4 + ((length + 3) & ~3)
    return found


def read_pcapng(path):
    """(frames, interface options, statistics options) of a one-interface pcapng (if_tsresol 9)."""
    with open(path, "rb") as f:
        data = f.read()
    frames, idb, isb, at = [], {}, {}, 0
    while at + 12 <= len(data):
        kind, total = struct.unpack_from("<II", data, at)
        body = data[at + 8:at + total - 4]
        if kind == 1:
            idb = options(body[8:])
        elif kind == 6:
            _iface, high, low, incl, _orig = struct.unpack_from("<IIIII", body, 0)
            frames.append(((high << 32) | low, body[20:20 + incl]))
        elif kind == 5:
            isb = options(body[12:])
        at += total
    return frames, idb, isb


def port_frames(frames, mac):
    return [f for f in frames if f[1][0:6] == mac or f[1][6:12] == mac]


def is_subsequence(part, whole):
    it = iter(whole)
    return all(any(f == e for e in it) for f in part)


def wait_for(predicate, seconds, what):
    end = time.time() + seconds
    while time.time() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def read_log(f):
    f.flush()
    with open(f.name, encoding="utf-8", errors="replace") as again:
        return again.read()


def run_case(cli, work, name, rq_depth, quiet, interrupt=False):
    """Runs ib_write_bw under a sniffer of host 2; returns the two captures and the outputs."""
    sock = os.path.join(work, f"{name}.sock")
    fabric_pcap = os.path.join(work, f"{name}_fabric.pcap")
    sniff_pcap = os.path.join(work, f"{name}_sniff.pcapng")
    logs = {k: open(os.path.join(work, f"{name}_{k}.log"), "w+b")
            for k in ("fabric", "cap_out", "cap_err", "server", "client")}
    fabric = subprocess.Popen([cli, "fabric", "--socket", sock, "--pcap", fabric_pcap],
                              stdout=logs["fabric"], stderr=subprocess.STDOUT)
    procs = [fabric]
    try:
        wait_for(lambda: os.path.exists(sock), 10, "the fabric's socket")
        capture_cmd = [cli, "exec", "--fabric", sock, "--host", "2", "--sniff", "--", cli,
                       "capture", "-i", "rdmascope0", "-w", sniff_pcap]
        if rq_depth:
            capture_cmd += ["--rq-depth", str(rq_depth)]
        if quiet:
            capture_cmd.append("-q")
        capture = subprocess.Popen(capture_cmd, stdout=logs["cap_out"], stderr=logs["cap_err"])
        procs.append(capture)
        wait_for(lambda: os.path.getsize(logs["cap_err"].name) > 0, 20, "the capture to start")
        bw = ["ib_write_bw", "-d", "rdmascope0", "-x", "1", "-F", "-n", "200", "-s", "65536",
              "-p", str(PORT)]
        server = subprocess.Popen([cli, "exec", "--fabric", sock, "--host", "1", "--"] + bw,
                                  stdout=logs["server"], stderr=subprocess.STDOUT)
        procs.append(server)
        wait_for(lambda: tcp_listening(PORT), 20, "ib_write_bw's server")
        client = subprocess.Popen([cli, "exec", "--fabric", sock, "--host", "2", "--"] + bw
                                  + ["localhost"], stdout=logs["client"], stderr=subprocess.STDOUT)
        procs.append(client)
        if interrupt:  # Ctrl-C while the frames pour in
            wait_for(lambda: os.path.exists(fabric_pcap) and os.path.getsize(fabric_pcap) > 2_000_000,
                     60, "traffic")
            capture.send_signal(signal.SIGINT)
            assert capture.wait(timeout=30) == 0, \
                f"{name}: the capture exited {capture.returncode}: {read_log(logs['cap_err'])}"
        assert client.wait(timeout=120) == 0, f"{name}: ib_write_bw client exited {client.returncode}"
        assert server.wait(timeout=60) == 0, f"{name}: ib_write_bw server failed"
        if not interrupt:
            # The capture may decode and print slower than the port delivers: let it catch up
            # with the port's frames (the fabric's pcap is flushed every few ms) before Ctrl-C.
            time.sleep(0.5)
            if not quiet:
                total = len(port_frames(read_pcap(fabric_pcap), HOST2_MAC))
                wait_for(lambda: read_log(logs["cap_out"]).count("\n") >= total, 120,
                         f"the capture to print the port's {total} frames")
            capture.send_signal(signal.SIGINT)
            assert capture.wait(timeout=30) == 0, \
                f"{name}: the capture exited {capture.returncode}: {read_log(logs['cap_err'])}"
        fabric.send_signal(signal.SIGINT)
        fabric.wait(timeout=30)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    texts = {}
    for k, f in logs.items():
        f.seek(0)
        texts[k] = f.read().decode(errors="replace")
        f.close()
    return read_pcap(fabric_pcap), read_pcapng(sniff_pcap), sniff_pcap, texts


def reported_drops(err, isb):
    m = re.search(r"(\d+) packets? captured, (\d+) dropped by the device", err)
    assert m, f"no drop count on the capture's stderr: {err!r}"
    assert 5 in isb, "the pcapng has no isb_ifdrop"
    isb_drop, = struct.unpack("<Q", isb[5][0])
    assert isb_drop == int(m.group(2)), f"isb_ifdrop {isb_drop} != stderr's {m.group(2)}"
    return int(m.group(1)), int(m.group(2))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", required=True)
    args = ap.parse_args()
    need(["ib_write_bw"])
    failures = 0
    with tempfile.TemporaryDirectory(prefix="rdmascope-sniffer-") as work:
        # 1. A receive queue deeper than the run has frames (the capture prints every frame it
        # decodes, which a loaded machine may do slower than the port delivers): every frame of
        # the port, as the fabric saw it.
        fabric, (sniff, idb, isb), _path, out = run_case(args.cli, work, "full", 20000,
                                                         quiet=False)
        expected = port_frames(fabric, HOST2_MAC)
        captured, dropped = reported_drops(out["cap_err"], isb)
        checks = [
            (len(expected) > 12800, f"the fabric saw only {len(expected)} frames of host 2"),
            (dropped == 0, f"{dropped} frames dropped with the default receive queue"),
            (captured == len(sniff), f"stderr says {captured} captured, the file holds {len(sniff)}"),
            (sniff == expected,
             f"the sniffer's {len(sniff)} frames differ from the fabric's {len(expected)} of host 2"),
            (b"hardware" in b"".join(idb.get(1, [])),
             f"the interface block does not say the timestamps are hardware: {idb.get(1)}"),
            (idb.get(2) == [b"rdmascope0"], f"if_name {idb.get(2)}"),
            ("RDMA WRITE" in out["cap_out"].upper().replace("_", " "),
             "the capture printed no decoded RDMA WRITE"),
        ]
        for ok, why in checks:
            if not ok:
                print("FAILED (full): " + why)
                failures += 1
        if not failures:
            print(f"full: {len(sniff)} frames equal the fabric's capture of host 2, 0 dropped")

        # 2. A receive queue of 2 WQEs overruns: the drops reported are the frames missing.
        fabric, (sniff, idb, isb), path, out = run_case(args.cli, work, "small", 2, quiet=True)
        expected = port_frames(fabric, HOST2_MAC)
        captured, dropped = reported_drops(out["cap_err"], isb)
        subsequence = is_subsequence(sniff, expected)
        analyze = subprocess.run([args.cli, "analyze", path], capture_output=True, text=True,
                                 check=False)
        checks = [
            (dropped > 0, "no overrun with a receive queue of 2 WQEs"),
            (len(expected) - len(sniff) == dropped,
             f"{len(expected) - len(sniff)} frames missing but {dropped} reported dropped"),
            (subsequence, "the sniffer's frames are not the port's frames in order"),
            (analyze.returncode == 0, f"analyze exited {analyze.returncode}: {analyze.stderr}"),
            ("psn_gap" in analyze.stdout, "analyze found no PSN gap"),
            (f"reported {dropped} frame" in analyze.stdout,
             "analyze did not relate the PSN gaps to the drops the capture reported"),
        ]
        for ok, why in checks:
            if not ok:
                print("FAILED (small): " + why)
                failures += 1
        if not any(why for ok, why in checks if not ok):
            print(f"small: {dropped} overruns reported = {len(expected) - len(sniff)} frames "
                  "missing; analyze flags the gaps")
        # 3. Ctrl-C during the transfer: the capture ends cleanly (status 0, its summary line, a
        # whole pcapng whose frames are the port's, in order), the sniffer detaches, and the
        # programs it watched finish undisturbed.
        fabric, (sniff, idb, isb), path, out = run_case(args.cli, work, "interrupt", 0, quiet=True,
                                                        interrupt=True)
        expected = port_frames(fabric, HOST2_MAC)
        captured, dropped = reported_drops(out["cap_err"], isb)
        checks = [
            (0 < len(sniff) < len(expected), f"{len(sniff)} of {len(expected)} frames captured"),
            (is_subsequence(sniff, expected), "the frames captured are not the port's, in order"),
            (captured == len(sniff), f"stderr says {captured} captured, the file holds {len(sniff)}"),
            (len(out["cap_err"].strip().splitlines()) == 2,
             f"the capture said more than its two lines: {out['cap_err']!r}"),
            ("the sniffer of host2 detached" in out["fabric"], "the fabric saw no detach"),
        ]
        for ok, why in checks:
            if not ok:
                print("FAILED (interrupt): " + why)
                failures += 1
        if not failures:
            print(f"interrupt: Ctrl-C after {len(sniff)} frames, clean stop, ib_write_bw finished")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
