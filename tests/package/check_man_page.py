#!/usr/bin/env python3
"""Checks a man page against the --help of the program it documents, so the two cannot drift.

check_man_page.py --cli PROGRAM PAGE   rdmascope-cli: every command `PROGRAM --help` lists (and
    the commands under it, e.g. `lab run`) has a subsection named after its path, and every
    option its --help lists appears in that subsection (-h/--help once, in OPTIONS).
check_man_page.py --gui PROGRAM PAGE   rdmascope: every option `PROGRAM --help` lists appears
    in OPTIONS.

The page is rendered with `man -l` (it must render without a warning); exit 1 names what is
missing, exit 2 a usage error. Without man (Debian's man-db) the check is skipped (exit 77), or
fails under RDMASCOPE_REQUIRE_ORACLES=1 (tests/support/oracle.py finds it).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import oracle  # noqa: E402


def render(page):
    env = dict(os.environ, LC_ALL="C", MANWIDTH="200", MAN_KEEP_FORMATTING="")
    r = subprocess.run([oracle.program_path("man"), "--warnings", "-l", "-P", "cat", page], capture_output=True,
                       text=True, env=env, check=False)
    if r.returncode != 0 or r.stderr.strip():
        sys.exit(f"FAILED: man -l {page} (exit {r.returncode}): {r.stderr.strip()}")
    return r.stdout


def sections(text):
    """{heading: body} for the sections (column 0) and subsections (3 spaces) of a page."""
    out, name, body = {}, None, []
    for line in text.splitlines():
        m = re.match(r"^(\S.*)$|^   (\S.*)$", line)
        if m and not line.startswith("       "):
            if name is not None:
                out[name] = "\n".join(body)
            name, body = (m.group(1) or m.group(2)).strip(), []
        else:
            body.append(line)
    if name is not None:
        out[name] = "\n".join(body)
    return out


def cli_help(program, path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    r = subprocess.run([program, *path, "--help"], capture_output=True, text=True, env=env,
                       check=False)
    if r.returncode != 0:
        sys.exit(f"FAILED: {program} {' '.join(path)} --help exited {r.returncode}: {r.stderr}")
    return r.stdout


def cli11_listing(text):
    """The option names and subcommands of a CLI11 --help."""
    options, commands, section = [], [], None
    for line in text.splitlines():
        if re.match(r"^[A-Za-z]+:$", line):
            section = line[:-1]
        elif section == "Options" and line.startswith("  -"):
            options += line.split()[0].split(",")
        elif section == "Subcommands" and re.match(r"^  [a-z]", line):
            commands.append(line.split()[0])
    return options, commands


def mentions(body, option):
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", body) is not None


def check_cli(program, text):
    parts = sections(text)
    problems = []
    top_options, top_commands = cli11_listing(cli_help(program, []))
    if not top_commands:
        problems.append(f"{program} --help lists no subcommands")
    for option in top_options:
        if not mentions(parts.get("OPTIONS", ""), option):
            problems.append(f"OPTIONS does not name {option}")
    todo = [[c] for c in top_commands]
    checked = 0
    while todo:
        path = todo.pop(0)
        options, commands = cli11_listing(cli_help(program, path))
        if commands:  # a group (bench, lab): its commands get the subsections
            todo += [path + [c] for c in commands]
            continue
        title = " ".join(path)
        if title not in parts:
            problems.append(f"no subsection '{title}' under COMMANDS")
            continue
        checked += 1
        for option in options:
            if option in ("-h", "--help"):
                continue
            if not mentions(parts[title], option):
                problems.append(f"subsection '{title}' does not name {option}")
    for name in ("EXIT STATUS", "EXAMPLES"):
        if name not in parts:
            problems.append(f"no {name} section")
    return problems, checked


def check_gui(program, text):
    parts = sections(text)
    problems = []
    options = []
    for line in cli_help(program, []).splitlines():
        if line.startswith("  -"):
            names = re.split(r"\s{2,}", line.strip())[0]
            options += [re.sub(r"\s*<.*>", "", n).strip() for n in names.split(",")]
    if len(options) < 5:
        problems.append(f"{program} --help lists only {options}")
    for option in options:
        if not mentions(parts.get("OPTIONS", ""), option):
            problems.append(f"OPTIONS does not name {option}")
    for name in ("EXIT STATUS", "EXAMPLES"):
        if name not in parts:
            problems.append(f"no {name} section")
    return problems, len(options)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("--cli", "--gui"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, program, page = sys.argv[1:]
    missing = oracle.missing_program("man")
    if missing:
        if os.environ.get("RDMASCOPE_REQUIRE_ORACLES") == "1":
            print(f"FAILED: RDMASCOPE_REQUIRE_ORACLES=1 and the test needs what is missing: {missing}")
            return 1
        print(f"skipped: missing: {missing}")
        return 77
    text = render(page)
    problems, count = (check_cli if kind == "--cli" else check_gui)(program, text)
    if problems:
        print(f"FAILED: {page} against {program} --help:")
        for p in problems:
            print("  " + p)
        return 1
    what = "commands" if kind == "--cli" else "options"
    print(f"{page}: renders, names every one of the {count} {what} of {program} --help")
    return 0


if __name__ == "__main__":
    sys.exit(main())
