#!/usr/bin/env python3
"""Validates every built-in scenario (as `rdmascope-cli sim --show NAME` prints it) and every
file of examples/scenarios against docs/scenario.schema.json with python3-jsonschema, and checks
that the schema refuses what the reader refuses (a value out of range, an unknown key, a step
with two actions). Usage: scenario_schema_test.py RDMASCOPE_CLI SOURCE_DIR.
A missing jsonschema module skips the test (exit 77), or fails it under
RDMASCOPE_REQUIRE_ORACLES=1."""
import copy
import glob
import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    WHAT = "the Python module jsonschema (Debian package python3-jsonschema)"
    if os.environ.get("RDMASCOPE_REQUIRE_ORACLES") == "1":
        print("FAILED: RDMASCOPE_REQUIRE_ORACLES=1 and the test needs what is missing: " + WHAT)
        sys.exit(1)
    print("SKIPPED: missing " + WHAT)
    sys.exit(77)


def main():
    cli, source = sys.argv[1], sys.argv[2]
    with open(os.path.join(source, "docs", "scenario.schema.json"), encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failures = []

    def check(what, document, valid=True):
        errors = list(validator.iter_errors(document))
        if valid and errors:
            e = errors[0]
            failures.append(f"{what}: /{'/'.join(map(str, e.absolute_path))}: {e.message}")
        elif not valid and not errors:
            failures.append(f"{what}: the schema accepts it")

    listing = subprocess.run([cli, "sim", "--list"], capture_output=True, text=True, check=True)
    names = [line.split("\t")[0] for line in listing.stdout.splitlines()
             if "(no verbs trace" not in line]
    if len(names) < 10:
        failures.append(f"sim --list named only {names}")
    builtins = {}
    for name in names:
        shown = subprocess.run([cli, "sim", "--show", name], capture_output=True, text=True)
        if shown.returncode != 0:
            failures.append(f"sim --show {name}: {shown.stderr.strip()}")
            continue
        builtins[name] = json.loads(shown.stdout)
        check(f"built-in {name}", builtins[name])
    examples = sorted(glob.glob(os.path.join(source, "examples", "scenarios", "*.json")))
    if len(examples) < 5:
        failures.append(f"only {len(examples)} files in examples/scenarios")
    for path in examples:
        with open(path, encoding="utf-8") as f:
            check(os.path.relpath(path, source), json.load(f))

    # What the reader refuses, the schema refuses too.
    base = builtins.get("rc-send-recv")
    if base:
        def broken(edit):
            d = copy.deepcopy(base)
            edit(d)
            return d
        check("port 256", broken(lambda d: d["steps"][0]["modify_qp"].update(port=256)), False)
        check("an unknown key", broken(lambda d: d["hosts"][0]["qps"][0].update(max_send_wrs=4)),
              False)
        check("a step with two actions", broken(lambda d: d["steps"][0].update(run_us=5)), False)
        check("three hosts", broken(lambda d: d["hosts"].append(d["hosts"][0])), False)
        check("no steps", broken(lambda d: d.pop("steps")), False)
        check("opcode WRITE", broken(lambda d: d["steps"][9]["post_send"].update(opcode="WRITE")),
              False)

    for f in failures:
        print("FAILED: " + f)
    if failures:
        sys.exit(1)
    print(f"ok: {len(builtins)} built-ins and {len(examples)} examples validate against "
          f"docs/scenario.schema.json ({validator_class.__name__}); 6 broken ones do not")


main()
