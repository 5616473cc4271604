#!/usr/bin/env python3
"""Fails when a user-visible string of the GUI has no finished Chinese translation.

Runs lupdate over ui/ into a copy of the committed .ts (new strings come out unfinished,
strings the sources no longer have are dropped) and names every source string whose
translation is missing or unfinished. Usage: check_translations.py LUPDATE UI_DIR WORK_DIR
"""
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

lupdate, ui_dir, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
work.mkdir(parents=True, exist_ok=True)
ts = work / "rdmascope_zh_CN.ts"
shutil.copyfile(ui_dir / "i18n" / "rdmascope_zh_CN.ts", ts)
run = subprocess.run([lupdate, str(ui_dir / "src"), str(ui_dir / "include"), "-locations", "none",
                      "-no-obsolete", "-ts", str(ts)], capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f"lupdate failed: {run.stderr.strip()}")
missing = []
total = 0
for context in ET.parse(ts).getroot().iter("context"):
    name = context.findtext("name")
    for message in context.iter("message"):
        total += 1
        t = message.find("translation")
        # A plural message keeps its forms in <numerusform> children.
        text = "" if t is None else (t.text or "") + "".join(f.text or "" for f in t.iter("numerusform"))
        if t is None or t.get("type") in ("unfinished",) or not text.strip():
            missing.append(f"{name}: {message.findtext('source')!r}")
for m in missing:
    print(f"untranslated: {m}")
if missing:
    sys.exit(f"{len(missing)} of {total} strings have no finished zh_CN translation; run "
             "`cmake --build build/dev --target update_translations` and translate them "
             "(docs/TRANSLATING.md)")
print(f"all {total} strings translated")
