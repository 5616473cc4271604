"""TCP port checks for the tests that run verbs programs (their out-of-band exchange)."""


def tcp_listening(port):
    """True when some socket listens on the TCP port (read from /proc, without connecting:
    a probe connection would be taken as the client by a one-shot server)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                        return True
        except OSError:
            pass
    return False
