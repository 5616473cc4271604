#!/usr/bin/env python3
"""Fails when a user-visible string of the GUI has no finished Chinese translation.

Runs lupdate over ui/ into a copy of the committed .ts (new strings come out unfinished,
strings the sources no longer have are dropped) and names every source string whose
translation is missing or unfinished. Also fails when lupdate files the tr() strings of a
QObject class of rdmascope::ui under the bare class name: at run time tr() looks them up under
"rdmascope::ui::Name" and finds nothing, so they show in English (lupdate loses the namespace
when it misreads a declaration before the class, such as `enum Row : int {`).
Usage: check_translations.py LUPDATE UI_DIR WORK_DIR
"""
import re
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
# QObject classes (Q_OBJECT) declared in the ui sources: tr() uses their qualified name.
qobjects = set()
for path in list((ui_dir / "include").rglob("*.h")) + list((ui_dir / "src").rglob("*.[ch]*")):
    text = path.read_text(encoding="utf-8", errors="replace")
    qobjects.update(re.findall(r"\bclass\s+(\w+)\b[^;{]*\{\s*Q_OBJECT\b", text))
# A class may name its own context on purpose: QCoreApplication::translate("Name", ...).
explicit = set()
for path in list((ui_dir / "include").rglob("*.h")) + list((ui_dir / "src").rglob("*.[ch]*")):
    text = path.read_text(encoding="utf-8", errors="replace")
    explicit.update(re.findall(r"(?:translate|QT_TRANSLATE_NOOP)\(\s*\"(\w+)\"", text))
contexts = {c.findtext("name") for c in ET.parse(ts).getroot().iter("context")}
misfiled = sorted((qobjects & contexts) - explicit)
for name in misfiled:
    print(f"misfiled: the strings of {name} are filed under '{name}', not "
          f"'rdmascope::ui::{name}': tr() finds none of them at run time (look for a "
          "declaration lupdate misreads before the class, such as `enum E : int {`)")
for m in missing:
    print(f"untranslated: {m}")
if missing:
    sys.exit(f"{len(missing)} of {total} strings have no finished zh_CN translation; run "
             "`cmake --build build/dev --target update_translations` and translate them "
             "(docs/TRANSLATING.md)")
if misfiled:
    sys.exit(f"{len(misfiled)} QObject class(es) of rdmascope::ui lose their translations")
print(f"all {total} strings translated")
