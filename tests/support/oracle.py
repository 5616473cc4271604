"""The oracle rules of tests/support/oracle.h for the Python checkers: where tshark is
($RDMASCOPE_TSHARK when set, else on PATH) and the one list of heuristic dissectors every
tshark comparison disables (tshark_disabled_protocols.txt)."""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def program_path(name):
    """The program's path ($RDMASCOPE_<NAME> when set, which must be an executable file, else
    NAME on PATH), or None when it is missing."""
    var = "RDMASCOPE_" + name.upper().replace("-", "_")
    over = os.environ.get(var)
    if over:
        return over if os.path.isfile(over) and os.access(over, os.X_OK) else None
    return shutil.which(name)


def missing_program(name):
    """One phrase naming why the program is missing, or None when it is there."""
    if program_path(name):
        return None
    var = "RDMASCOPE_" + name.upper().replace("-", "_")
    if os.environ.get(var):
        return f"{name} ({var}={os.environ[var]} is not an executable file)"
    return f"{name} (not on PATH)"


def tshark_disabled_protocols():
    """The heuristic dissectors that claim RDMA payloads, one list for every language."""
    names = []
    with open(os.path.join(HERE, "tshark_disabled_protocols.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line)
    return names


def tshark_disable_args():
    """tshark's --disable-protocol arguments for tshark_disabled_protocols()."""
    args = []
    for p in tshark_disabled_protocols():
        args += ["--disable-protocol", p]
    return args


def need(names):
    """Exits unless every program in `names` is there: 77 (skipped, naming what is missing),
    or 1 under RDMASCOPE_REQUIRE_ORACLES=1 (CI), where a missing oracle is a failure."""
    missing = [m for m in (missing_program(n) for n in names) if m]
    if not missing:
        return
    if os.environ.get("RDMASCOPE_REQUIRE_ORACLES") == "1":
        print("FAILED: RDMASCOPE_REQUIRE_ORACLES=1 and the test needs what is missing: "
              + ", ".join(missing))
        sys.exit(1)
    print("SKIPPED: missing " + ", ".join(missing))
    sys.exit(77)
