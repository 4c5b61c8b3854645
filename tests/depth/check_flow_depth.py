#!/usr/bin/env python3
"""check_flow_depth.py SGCC — deep nesting of every flow construct translates.

Issue 35, item 2: the uniformity analysis (compiler/sema/sema_flow.c) once
analysed a loop's body twice whenever the body had a divergent jump, and did
so again at every level of nesting: 2^depth passes (26 nested loops with a
`continue` took 23 s).  Each case here nests one construct DEPTH (200)
levels deep, in a kernel and in a device function that asks for its tangle
(which the tangle lowering walks too).  There is no timing limit in this
test: an analysis exponential in the depth would need about 2^200 passes
and never finish, so the test would fail by the meson test timeout.

Each translation must exit 0 with no diagnostics, every level must be in
the OpenCL output (found by its level number, however it was lowered), and
the braces of both outputs must balance.  TAP output, one line a case."""
import os
import re
import subprocess
import sys
import tempfile

DEPTH = 200

# construct: (opening of one level, closing of one level, a pattern whose
# group is the level number as it appears in the output).  `{i}` is the level.
CONSTRUCTS = {
    "for-continue": ("for (int a{i} = 0; a{i} < 2; a{i}++) {{ if (in[i] & 1) continue;", "}",
                     r"\bint a(\d+) = 0;"),
    "for-break": ("for (int a{i} = 0; a{i} < 2; a{i}++) {{ if (in[i + {i}] > 3) break;", "}",
                  r"\bint a(\d+) = 0;"),
    "while-break": ("while (acc < {i}u + 1000u) {{ acc++; if (in[i] & 1) break;", "}",
                    r"acc < (\d+)u \+ 1000u"),
    "do-continue": ("do {{ acc += {i}u + 7000u; if (in[i] & 2) continue;", "} while (acc < 5u);",
                    r"acc \+= (\d+)u \+ 7000u"),
    "switch": ("switch (in[i + {i}]) {{ case 0: acc++; break; case 1: if (in[i] & 1) break; "
               "default: {{", "} }", r"in\[i \+ (\d+)\]"),
    "if-return": ("if (in[i + {i}] & 1) {{ acc++; if (in[i] & 4) return RET; }} else {{",
                  "acc += 2u; }", r"in\[i \+ (\d+)\] & 1"),
    "block-return": ("{{ if (in[i + {i}] == {i}) return RET; acc++;", "}",
                     r"in\[i \+ (\d+)\] == \d+"),
}


def source(construct, tangle):
    opening, closing, _ = CONSTRUCTS[construct]
    ret = " acc" if tangle else ""
    lines = []
    if tangle:
        lines += ["uint walk(global const int *in, int i)", "{", "    uint acc = 0u;"]
    else:
        lines += ["kernel void walk(global const int *in, global uint *out)", "{",
                  "    int i = (int)get_global_id(0);", "    uint acc = 0u;"]
    lines += [opening.format(i=i).replace("RET", ret) for i in range(DEPTH)]
    if tangle:
        lines.append("{ tangle_group t = get_tangle_group(get_sub_group()); "
                     "acc += t.get_local_linear_id(); }")
    else:
        lines.append("acc++;")
    lines += [closing] * DEPTH
    if tangle:
        lines += ["return acc;", "}", "kernel void k(global const int *in, global uint *out)",
                  "{", "    int i = (int)get_global_id(0);", "    out[i] = walk(in, i);", "}"]
    else:
        lines += ["out[i] = acc;", "}"]
    return "\n".join(lines) + "\n"


def balanced(text):
    depth = 0
    for c in text:
        depth += c == "{"
        depth -= c == "}"
        if depth < 0:
            return False
    return depth == 0


def check(sgcc, tmp, construct, tangle):
    name = "%s%s" % (construct, "-tangle" if tangle else "")
    src = os.path.join(tmp, name + ".sgc")
    with open(src, "w") as f:
        f.write(source(construct, tangle))
    out = os.path.join(tmp, name)
    run = subprocess.run([sgcc, "--color=never", "-t", "all", "-o", out, src],
                         capture_output=True, text=True)
    problems = []
    if run.returncode != 0 or run.stderr:
        problems.append("exit %d, stderr %r" % (run.returncode, run.stderr[:300]))
    else:
        with open(out + ".cl") as f:
            cl = f.read()
        levels = {int(m) for m in re.findall(CONSTRUCTS[construct][2], cl)}
        if levels != set(range(DEPTH)):
            problems.append("%d of %d levels in the OpenCL output" % (len(levels), DEPTH))
        for ext in (".cl", ".cu"):
            with open(out + ext) as f:
                if not balanced(f.read()):
                    problems.append("braces of the %s output do not balance" % ext)
    return name, problems


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 99
    sgcc = sys.argv[1]
    cases = [(c, t) for c in CONSTRUCTS for t in (False, True)]
    print("1..%d" % len(cases))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for number, (construct, tangle) in enumerate(cases, 1):
            name, problems = check(sgcc, tmp, construct, tangle)
            failed += bool(problems)
            print("%s %d - %s nested %d deep%s" % ("not ok" if problems else "ok", number, name,
                                                   DEPTH, ": " + "; ".join(problems) if problems else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
