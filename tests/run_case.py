#!/usr/bin/env python3
"""run_case.py — one golden or error test case (tests/README.md "Golden cases", "Error cases").

  run_case.py SGCC SOURCE_ROOT tests/DIR/NAME.sgc [--library NAME=FILE]...
  run_case.py --list SOURCE_ROOT
  run_case.py --check-registered SOURCE_ROOT LIST_FILE

The expected files beside NAME.sgc pick the mode:

NAME.err — error test.  sgcc runs from inside tests/DIR with --color=never
  (NAME.flags adds words) and must
  - exit with status 1 (errors in the input),
  - write stderr equal to NAME.err exactly (file:line:col, message, line,
    caret), holding at least one located `file:line:col: error:` (or
    `fatal error:`),
  - create no file (asked for -o, --header and -MD) and no temporary,
  - leave outputs that already exist byte-identical.

NAME.cl / NAME.cu (and NAME.h) — golden test.  `sgcc -t all -o TMP/NAME`
  runs from inside tests/DIR (so the names in banners and #line directives do
  not depend on where the checkout lives), with `--header` when NAME.h
  exists and the words of NAME.flags; NAME.cl, NAME.cu (and NAME.h) are
  compared with `diff -u`.  The case runs twice: both runs must succeed and
  write byte-identical outputs (docs/DESIGN.md: deterministic).
  Device library: each --library NAME=FILE (meson passes the
  sections as embedded, prelude_text of compiler/meson.build) is a section sgcc pastes
  verbatim when a unit needs it.  Before comparing, every whole, line-aligned
  occurrence of a section's text in the output becomes one marker line
  `/* @sgc-library NAME */`, so the goldens hold the marker and a library
  edit leaves them alone (the library itself is tested by the execution
  suites).  In a header the sources are C string literals, one literal per
  source line: a run of literal lines that decodes to a section becomes
  `    /* @sgc-library NAME */` (a comment between literals).  A section
  pasted in part, or edited by sgcc, stays in the golden as text.

SGCC_UPDATE_GOLDEN=1 writes the expected files from the actual output
instead of comparing (the other checks still run); review with `git diff`.
A new case has no expected file yet: create an empty NAME.err, or an empty
NAME.cl (NAME.h too for --header), then update.

--list prints the cases of tests/golden and tests/errors as `DIR/NAME`, one a
line: tests/meson.build registers one test per line at configure time.
--check-registered compares that list, as configured (LIST_FILE), with the
.sgc files there now: a case added or removed since needs a reconfigure.

Exit status: 0 pass, 1 fail, 99 bad usage."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CASE_DIRS = ("golden", "errors")
MARKER = b"@sgc-library"
LOCATED_ERROR = re.compile(rb"^[^ \n]+:[0-9]+:[0-9]+: (fatal )?error: ", re.M)


def list_cases(root):
    cases = []
    for d in CASE_DIRS:
        path = os.path.join(root, "tests", d)
        cases += ["%s/%s" % (d, f[:-4]) for f in sorted(os.listdir(path)) if f.endswith(".sgc")]
    return cases


def check_registered(root, list_file):
    with open(list_file) as f:
        registered = set(f.read().split())
    now = set(list_cases(root))
    for case in sorted(now - registered):
        print("tests/%s.sgc is not a registered test: reconfigure "
              "(meson setup --reconfigure BUILD; scripts/test.sh does it)" % case)
    for case in sorted(registered - now):
        print("tests/%s.sgc is registered but gone: reconfigure "
              "(meson setup --reconfigure BUILD; scripts/test.sh does it)" % case)
    return 0 if now == registered else 1


# ---- device-library markers ------------------------------------------------

def marker(name):
    return b"/* " + MARKER + b" " + name.encode() + b" */"


def mark_source(text, sections):
    """Replaces each whole, line-aligned section text in OpenCL/CUDA output."""
    for name, body in sections:
        out, start = [], 0
        while True:
            i = text.find(body, start)
            if i < 0:
                break
            if i == 0 or text[i - 1:i] == b"\n":
                out += [text[start:i], marker(name) + b"\n"]
                start = i + len(body)
            else:
                out.append(text[start:i + 1])
                start = i + 1
        text = b"".join(out) + text[start:]
    return text


LITERAL_LINE = re.compile(rb'^    "((?:[^"\\]|\\.)*)"$')
SIMPLE_ESCAPES = {b"n": 10, b"t": 9, b"\\": 92, b'"': 34, b"'": 39, b"?": 63,
                  b"a": 7, b"b": 8, b"f": 12, b"r": 13, b"v": 11}


def c_unescape(body):
    """The bytes of one C string literal's contents."""
    out, i = bytearray(), 0
    while i < len(body):
        c = body[i:i + 1]
        if c != b"\\":
            out += c
            i += 1
            continue
        e = body[i + 1:i + 2]
        if e in SIMPLE_ESCAPES:
            out.append(SIMPLE_ESCAPES[e])
            i += 2
        elif e == b"x":
            m = re.match(rb"[0-9a-fA-F]+", body[i + 2:])
            out.append(int(m.group(), 16) & 0xff)
            i += 2 + len(m.group())
        else:
            m = re.match(rb"[0-7]{1,3}", body[i + 1:])
            out.append(int(m.group(), 8) & 0xff)
            i += 1 + len(m.group())
    return bytes(out)


def mark_header(text, sections):
    """Replaces each run of literal lines that spells a whole section."""
    lines = text.split(b"\n")
    decoded = []
    for line in lines:
        m = LITERAL_LINE.match(line)
        decoded.append(c_unescape(m.group(1)) if m else None)
    for name, body in sections:
        want = body.splitlines(keepends=True)
        if not want:
            continue
        i = 0
        while i + len(want) <= len(lines):
            aligned = i == 0 or decoded[i - 1] is None or decoded[i - 1].endswith(b"\n")
            if aligned and decoded[i] == want[0] and decoded[i:i + len(want)] == want:
                lines[i:i + len(want)] = [b"    " + marker(name)]
                decoded[i:i + len(want)] = [None]
            i += 1
    return b"\n".join(lines)


# ---- the two modes ------------------------------------------------------------

class Case:
    def __init__(self, sgcc, root, src, update):
        self.sgcc, self.update = sgcc, update
        self.dir = os.path.dirname(src)
        self.name = os.path.basename(src)[:-4]
        self.label = os.path.relpath(src, root)
        self.failures = 0
        flags = self.path("flags")
        self.flags = open(flags).read().split() if os.path.isfile(flags) else []

    def path(self, ext):
        return os.path.join(self.dir, self.name + "." + ext)

    def fail(self, message):
        print("FAIL %s: %s" % (self.label, message))
        self.failures += 1

    def sgcc_run(self, args):
        return subprocess.run([self.sgcc, "--color=never"] + args, cwd=self.dir,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)

    def compare(self, expected_path, actual, tmp, what):
        """diff -u of an expected file against actual bytes, or rewrite it."""
        if self.update:
            with open(expected_path, "wb") as f:
                f.write(actual)
            return
        actual_path = os.path.join(tmp, "actual", os.path.basename(expected_path))
        os.makedirs(os.path.dirname(actual_path), exist_ok=True)
        with open(actual_path, "wb") as f:
            f.write(actual)
        sys.stdout.flush()
        if subprocess.run(["diff", "-u", expected_path, actual_path]).returncode != 0:
            self.fail("%s differs from the expected %s (diff -u expected actual above)"
                      % (what, os.path.basename(expected_path)))

    def errors(self, tmp):
        # 1. Into an empty directory: status, exact stderr, nothing created.
        fresh = os.path.join(tmp, "fresh")
        os.mkdir(fresh)
        out = os.path.join(fresh, "out")
        r = self.sgcc_run(self.flags + ["-o", out, "--header", out + ".h", "-MD",
                                        self.name + ".sgc"])
        if r.returncode != 1:
            self.fail("exit status %d, expected 1" % r.returncode)
        self.compare(self.path("err"), r.stderr, tmp, "stderr")
        if not LOCATED_ERROR.search(r.stderr):
            self.fail("no located error (file:line:col: error:) on stderr")
        if os.listdir(fresh):
            self.fail("files were created: %s" % " ".join(sorted(os.listdir(fresh))))

        # 2. Over existing outputs: they must stay byte-identical.
        old = os.path.join(tmp, "old")
        os.mkdir(old)
        out = os.path.join(old, "out")
        previous = {}
        for ext in ("cl", "cu", "h", "d"):
            previous[ext] = b"previous %s output of %s\n" % (ext.encode(), self.name.encode())
            with open(out + "." + ext, "wb") as f:
                f.write(previous[ext])
        self.sgcc_run(self.flags + ["-o", out, "--header", out + ".h", "-MD",
                                    self.name + ".sgc"])
        for ext, content in previous.items():
            with open(out + "." + ext, "rb") as f:
                if f.read() != content:
                    self.fail("existing out.%s was modified" % ext)
        if len(os.listdir(old)) != 4:
            self.fail("stray files left: %s" % " ".join(sorted(os.listdir(old))))

    def golden(self, tmp, sections):
        exts = ["cl", "cu"]
        header = os.path.isfile(self.path("h"))
        if header:
            exts.append("h")
        outputs = []
        for run in ("first", "again"):
            base = os.path.join(tmp, run, self.name)
            os.makedirs(os.path.dirname(base))
            args = ["-t", "all", "-o", base]
            if header:
                args += ["--header", base + ".h"]
            r = self.sgcc_run(args + self.flags + [self.name + ".sgc"])
            if r.returncode != 0:
                self.fail("sgcc failed (%s run), exit status %d:\n%s"
                          % (run, r.returncode, r.stderr.decode(errors="replace")))
                return
            got = {}
            for ext in exts:
                with open(base + "." + ext, "rb") as f:
                    got[ext] = f.read()
            outputs.append(got)
        for ext in exts:
            if outputs[0][ext] != outputs[1][ext]:
                self.fail("%s.%s differs between two runs" % (self.name, ext))
        for ext in exts:
            actual = outputs[0][ext]
            if MARKER in actual:
                self.fail("the output of %s.%s already holds '%s': the library markers "
                          "would be ambiguous" % (self.name, ext, MARKER.decode()))
                continue
            mark = mark_header if ext == "h" else mark_source
            self.compare(self.path(ext), mark(actual, sections), tmp, "the output")


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)
    if argv[1:2] == ["--list"] and len(argv) == 3:
        print("\n".join(list_cases(argv[2])))
        return 0
    if argv[1:2] == ["--check-registered"] and len(argv) == 4:
        return check_registered(argv[2], argv[3])
    if len(argv) < 4 or not argv[3].endswith(".sgc"):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 99
    sgcc, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    src = os.path.join(root, argv[3])
    sections = []
    args = argv[4:]
    while args:
        if args[0] != "--library" or len(args) < 2 or "=" not in args[1]:
            print("run_case.py: expected --library NAME=FILE, saw %r" % args[0], file=sys.stderr)
            return 99
        name, file = args[1].split("=", 1)
        with open(file, "rb") as f:
            sections.append((name, f.read()))
        args = args[2:]
    # Longest first: a section that held another one's text stays one marker.
    sections.sort(key=lambda s: -len(s[1]))

    case = Case(sgcc, root, src, os.environ.get("SGCC_UPDATE_GOLDEN") == "1")
    is_error = os.path.isfile(case.path("err"))
    is_golden = any(os.path.isfile(case.path(e)) for e in ("cl", "cu", "h"))
    if not os.path.isfile(src):
        case.fail("no such file")
    elif is_error and is_golden:
        case.fail("both %s.err and golden outputs beside it: which mode?" % case.name)
    elif not is_error and not is_golden:
        case.fail("no expected file beside it (%s.err, or %s.cl and %s.cu): create an empty "
                  "one and run with SGCC_UPDATE_GOLDEN=1" % ((case.name,) * 3))
    elif is_golden and not sections:
        case.fail("golden mode needs the library sections (--library NAME=FILE; "
                  "`meson test` passes them)")
    else:
        tmp = tempfile.mkdtemp(prefix="sgcc-case-")
        try:
            if is_error:
                case.errors(tmp)
            else:
                case.golden(tmp, sections)
        finally:
            shutil.rmtree(tmp)
    if case.failures == 0:
        print("%s %s" % ("updated" if case.update else "ok", case.label))
    return 1 if case.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
