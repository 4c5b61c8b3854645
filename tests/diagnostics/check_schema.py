#!/usr/bin/env python3
"""check_schema.py SGCC SOURCE_ROOT — TAP.  Validates real
--diagnostics-format=json output of sgcc against docs/diagnostics.schema.json
(python3-jsonschema, Draft 2020-12), and checks that it says what the text
format says: for every input, the JSON objects and the text diagnostics
(file:line:col: severity: message) are the same list.  Inputs: every bad
input of tests/errors (with its .flags), a warning with and without -Werror,
a clean file ([]) and a missing file (an I/O error at no location).  The
schema must also reject broken documents, so that it cannot pass anything."""
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

sgcc, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
schema = json.load(open(os.path.join(root, "docs", "diagnostics.schema.json")))
n = failed = 0


def check(name, ok, detail=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name))
    if not ok:
        failed += 1
        for line in str(detail).splitlines()[:20]:
            print("#   " + line)


try:
    jsonschema.Draft202012Validator.check_schema(schema)
    check("the schema is a valid Draft 2020-12 schema", True)
except jsonschema.SchemaError as e:
    check("the schema is a valid Draft 2020-12 schema", False, e)
validator = jsonschema.Draft202012Validator(schema)

TEXT = re.compile(r"^(.+?):(?:(\d+):(\d+):)? (error|fatal error|warning|note): (.*?)"
                  r"(?: \[(-W[a-z0-9=-]+)\])?$")


def text_diagnostics(stderr):
    out = []
    for line in stderr.splitlines():
        m = TEXT.match(line)
        if m and not (line.startswith("sgcc: note: ") and line.endswith("not shown")):
            out.append({"file": m.group(1), "line": int(m.group(2) or 0),
                        "column": int(m.group(3) or 0), "severity": m.group(4),
                        "message": m.group(5)})
            if m.group(6):
                out[-1]["option"] = m.group(6)
    return out


def run(name, args, cwd, want_status, want_count=None):
    with tempfile.TemporaryDirectory() as out:
        base = ["-o", os.path.join(out, "o")]
        j = subprocess.run([sgcc, "--diagnostics-format=json"] + base + args, cwd=cwd,
                           capture_output=True, text=True)
        # The text form echoes the source line as it is (raw bytes of a
        # non-UTF-8 input, as GCC does); only its message lines are compared.
        t = subprocess.run([sgcc, "--color=never"] + base + args, cwd=cwd,
                           capture_output=True, text=True, errors="surrogateescape")
    check("%s: exit status %d" % (name, want_status), j.returncode == want_status,
          "got %d" % j.returncode)
    try:
        doc = json.loads(j.stderr)
    except ValueError as e:
        check("%s: stderr is one JSON document" % name, False, "%s\n%s" % (e, j.stderr))
        return
    errors = sorted(validator.iter_errors(doc), key=str)
    check("%s: valid against the schema" % name, not errors,
          "\n".join(e.message for e in errors[:5]))
    if want_count is not None:
        check("%s: %d diagnostics" % (name, want_count), len(doc) == want_count, doc)
    else:
        check("%s: at least one error" % name,
              any(d.get("severity") in ("error", "fatal error") for d in doc), doc)
    text = text_diagnostics(t.stderr)
    check("%s: JSON says what the text says" % name, doc == text,
          "json: %s\ntext: %s" % (doc, text))


errors_dir = os.path.join(root, "tests", "errors")
sources = sorted(glob.glob(os.path.join(errors_dir, "*.sgc")))
check("tests/errors has inputs", len(sources) >= 10, len(sources))
for src in sources:
    name = os.path.basename(src)[:-4]
    flags_file = os.path.join(errors_dir, name + ".flags")
    flags = open(flags_file).read().split() if os.path.exists(flags_file) else []
    run("errors/" + name, flags + [name + ".sgc"], errors_dir, 1)

cli = os.path.join(root, "tests", "cli")
run("cli/warn.sgc", ["warn.sgc"], cli, 0, 1)
run("cli/warn.sgc -Werror", ["-Werror", "warn.sgc"], cli, 1, 1)
run("cli/warn.sgc -Werror=NAME", ["-Werror=cpp", "warn.sgc"], cli, 1, 1)
with tempfile.TemporaryDirectory() as out:
    r = subprocess.run([sgcc, "--diagnostics-format=json", "-o", os.path.join(out, "o"),
                        "warn.sgc"], cwd=cli, capture_output=True, text=True)
    options = [d.get("option") for d in json.loads(r.stdout or r.stderr or "[]")]
    check("a warning names its option", options == ["-Wcpp"], options)
run("cli/ok.sgc", ["ok.sgc"], cli, 0, 0)
with tempfile.TemporaryDirectory() as empty:
    run("missing input", ["missing.sgc"], empty, 3, 1)

# The schema is not vacuous: each of these breaks one rule.
good = {"file": "a.sgc", "line": 3, "column": 7, "severity": "error", "message": "m"}
broken = {
    "a key missing": {k: v for k, v in good.items() if k != "column"},
    "an unknown key": dict(good, hint="x"),
    "an unknown severity": dict(good, severity="remark"),
    "line 0 with a column": dict(good, line=0),
    "column 0 with a line": dict(good, column=0),
    "a string line": dict(good, line="3"),
    "an empty message": dict(good, message=""),
    "a two-line message": dict(good, message="a\nb"),
    "an option that is not -W": dict(good, option="cpp"),
}
check("the schema accepts a well-formed diagnostic", validator.is_valid([good]))
check("the schema accepts a warning with its option",
      validator.is_valid([dict(good, severity="warning", option="-Wcpp")]))
check("the schema accepts an I/O error at no location",
      validator.is_valid([dict(good, file="sgcc", line=0, column=0)]))
for what, item in broken.items():
    check("the schema rejects %s" % what, not validator.is_valid([copy.deepcopy(item)]))
check("the schema rejects an object instead of an array", not validator.is_valid(good))

print("1..%d" % n)
sys.exit(1 if failed else 0)
