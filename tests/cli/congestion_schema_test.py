#!/usr/bin/env python3
"""Validates every congestion scenario of examples/congestion against
docs/congestion-scenario.schema.json with python3-jsonschema, checks that rdmascope-cli
congestion reads each, and that the schema refuses what the reader refuses (an unknown key, a
value out of range, a shape beside listed nodes, a flow without a destination).
Usage: congestion_schema_test.py RDMASCOPE_CLI SOURCE_DIR.
A missing jsonschema module skips the test (exit 77), or fails it under
RDMASCOPE_REQUIRE_ORACLES=1."""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

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
    with open(os.path.join(source, "docs", "congestion-scenario.schema.json"),
              encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failures = []

    def reads(document):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(document, f)
        try:
            r = subprocess.run([cli, "congestion", f.name, "--duration-us", "1"],
                               capture_output=True, text=True)
            return r.returncode == 0, r.stderr.strip()
        finally:
            os.unlink(f.name)

    def check(what, document, valid=True):
        errors = list(validator.iter_errors(document))
        ok, err = reads(document)
        if valid and errors:
            e = errors[0]
            failures.append(f"{what}: /{'/'.join(map(str, e.absolute_path))}: {e.message}")
        elif not valid and not errors:
            failures.append(f"{what}: the schema accepts it")
        if ok != valid:
            failures.append(f"{what}: the reader {'refuses' if valid else 'accepts'} it {err}")

    examples = sorted(glob.glob(os.path.join(source, "examples", "congestion", "*.json")))
    if len(examples) < 4:
        failures.append(f"only {len(examples)} files in examples/congestion")
    docs = {}
    for path in examples:
        with open(path, encoding="utf-8") as f:
            docs[os.path.basename(path)] = json.load(f)
        check(os.path.relpath(path, source), docs[os.path.basename(path)])

    base = docs.get("incast-dcqcn.json")
    if base:
        def broken(edit):
            d = copy.deepcopy(base)
            edit(d)
            return d
        check("an unknown key", broken(lambda d: d["switch"].update(buffer=5)), False)
        check("pmax 2", broken(lambda d: d["switch"]["ecn"].update(pmax=2)), False)
        check("a shape beside nodes", broken(lambda d: d["topology"].update(shape="star")), False)
        check("a flow without dst", broken(lambda d: d["flows"][0].pop("dst")), False)
        check("cnpDscp 64", broken(lambda d: d["nic"].update(cnpDscp=64)), False)
        check("a star", {"topology": {"shape": "star", "hosts": 3},
                         "flows": [{"src": "h0", "dst": "h1"}]})

    for f in failures:
        print("FAILED: " + f)
    if failures:
        sys.exit(1)
    print(f"ok: {len(examples)} congestion examples validate against "
          f"docs/congestion-scenario.schema.json ({validator_class.__name__}) and read; "
          "5 broken ones are refused by both")


main()
