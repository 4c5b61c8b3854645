#!/usr/bin/env python3
"""fix_citations.py [ROOT] — rewrite the citations of source comments into
the project's citation form (tests/docs/citations.py): a cited document of
the repository and the heading of the section, docs/REFERENCE.md "Groups".

The comments cited the product specification the project was written from
(a document not in the repository, by its section numbers), a style guide
that is not in it either, sections of bench/RESULTS.md and docs/RELIABILITY.md
that moved to bench/history/ and tests/diff/, and docs/REFERENCE.md by
number.  Each rule below names the text it replaces, so the script can be run
again on a tree where other changes moved that text to another file; it
changes nothing twice.  Files whose text sgcc pastes into its output (the
device library, compiler/emit/{opencl,cuda}/) are left alone: changing them
would change every output.  It prints what it changed and, at the end, any
citation of the specification that no rule covered (exit status 1 then).

The forbidden spellings are written with the escape \\u00a7 so that a grep
for them does not find this file."""
import os
import re
import sys

S = "SPEC \u00a7"
REF = 'docs/REFERENCE.md "%s"'
GROUPS = REF % "Groups"
SPECS = REF % "Specialization constants"
BARRIERS = REF % "Split barriers"
TIERS = 'docs/DESIGN.md "OpenCL C"'

# (old, new), most specific first; applied to every file in order.
RULES = [
    # runtime/
    (S + "2: NVIDIA's platform gets", TIERS + ": NVIDIA's platform gets"),
    ("NVIDIA defines of " + S + "2 (tier", "NVIDIA defines of " + TIERS + " (tier"),
    ("the nvptx tier (" + S + "2), and", "the nvptx tier (" + TIERS + "), and"),
    ("(" + S + "4): OpenCL through", "(docs/RUNTIME.md): OpenCL through"),
    ("compiled at run time (" + S + "6):",
     'compiled at run time (docs/RUNTIME.md "Compiling SGC at run time"):'),
    ("spec-constant binding (" + S + "1.2, after CP015)",
     'spec-constant binding (docs/RUNTIME.md "Programs and specialization constants")'),
    ("/* capabilities (" + S + "2 tiers) */", "/* capabilities (tiers: " + TIERS + ") */"),
    ("/* Programs and spec constants (" + S + "1.2)                             */",
     "/* Programs and spec constants (" + SPECS + ")   */"),
    ('* Both directions of docs/RUNTIME.md "Interop": an',
     '* Both directions of docs/RUNTIME.md "Interop with native OpenCL and\n * CUDA handles": an'),
    ('# docs/RUNTIME.md "Interop"); skips (77)',
     '# docs/RUNTIME.md "Interop with native OpenCL and CUDA handles");\n# skips (77)'),
    (' * (docs/RUNTIME.md, "Interop") and converts the handle,',
     ' * (docs/RUNTIME.md "Interop with native OpenCL and CUDA handles") and\n * converts the handle,'),
    # tests/
    ("(STYLE \u00a79)", '(tests/README.md "Golden cases", "Error cases")'),
    ("whatever the environment (" + S + "2:", "whatever the environment (" + REF % "Base language" + ":"),
    ("command line (" + S + "3,", "command line (docs/CLI.md,"),
    ("gcc-style command line (" + S + "6) ------------------------------------",
     'gcc-style command line (docs/CLI.md "Inputs") -------------------------'),
    ("tangle masks (" + S + "2): each call", 'tangle masks (docs/LOWERING.md "Tangle masks"): each call'),
    ("Tangle masks end to end (" + S + "2, docs/LOWERING.md", "Tangle masks end to end (docs/LOWERING.md"),
    ("Split barriers end to end (" + S + "1.3, docs/LOWERING.md", "Split barriers end to end (docs/LOWERING.md"),
    ("Groups end to end (" + S + "1.1, docs/LOWERING.md", "Groups end to end (" + GROUPS + ", docs/LOWERING.md"),
    ('(bench/RESULTS.md "Differential testing", docs/RELIABILITY.md)',
     '(tests/diff/CAMPAIGNS.md, docs/RELIABILITY.md "Differential testing")'),
    ('docs/RELIABILITY.md "Differential testing" describes each.', "tests/diff/BUGS.md describes each."),
    ("/* ---- spec constants (" + S + "1.2) -----------------------------------------",
     "/* ---- spec constants (" + SPECS + ") ------------"),
    ("/* ---- groups (" + S + "1.1) -------------------------------------------------",
     "/* ---- groups (" + GROUPS + ") ------------------------------------"),
    # compiler/
    ("/* Sizes of " + S + "1 (long", "/* Sizes of " + REF % "Types" + " (long"),
    ("(Node.is_uniform, " + S + "2)", '(Node.is_uniform, docs/DESIGN.md "Tangle masks")'),
    ("constants and their IDs (" + S + "1, " + "\u00a71.2)",
     "constants and their IDs (" + SPECS + ")"),
    ("/* ---- attributes (" + S + "1 kernel attributes) -----------------------------",
     "/* ---- attributes (" + REF % "Kernels, address spaces and attributes" + ") ---"),
    ("rules (" + S + "1, OpenCL C 6.9)", "rules (" + REF % "Kernels, address spaces and attributes" + ", OpenCL C 6.9)"),
    ("/* ---- spec constants (" + S + "1.2) -----------------------------------------",
     "/* ---- spec constants (" + SPECS + ") ------------"),
    ("arrival tokens and scalars (" + S + "1). */",
     "arrival tokens and scalars (" + REF % "Types" + "). */"),
    ("the static rules of " + S + "1 (address", 'the static rules of docs/REFERENCE.md "What is checked before any output" (address'),
    ("(" + S + "1.1), and member functions of groups and split barriers\n * (" + S + "1.3).",
     "(" + GROUPS + "), and member functions of groups and split\n * barriers (" + BARRIERS + ")."),
    ("(" + S + "1.1 escape rule)", "(" + GROUPS + ", escape rule)"),
    ("(" + S + "1.2: \"floating values", "(" + SPECS + ": \"floating values"),
    ("through control flow (" + S + "2,", 'through control flow (docs/LOWERING.md "Tangle masks",'),
    ("The " + S + "1.2 binding contract", "The binding contract of " + SPECS),
    ("(" + S + "1.1, \u00a71.3)", "(" + GROUPS + ", " + BARRIERS + ")"),
    ("--verify` (" + S + "3):", '--verify` (docs/CLI.md "--verify"):'),
    ("-M / -MD (" + S + "3).", '-M / -MD (docs/CLI.md "Depfiles").'),
    ("the sgcc command (" + S + "3, \u00a76):", "the sgcc command (docs/CLI.md):"),
    ("(why: " + S + "3, \"on any error", '(why: docs/CLI.md "Writing outputs", "on any error'),
    ("/* SGC additions (" + S + "1.1-\u00a71.3) */", "/* SGC additions (" + GROUPS + " to \"Split barriers\") */"),
    ("ballots, " + S + "2) */", 'ballots, docs/LOWERING.md "Tangle masks") */'),
    ("each written once (" + S + "1, \u00a71.1, \u00a71.3).",
     "each written once (docs/REFERENCE.md \"Work-item functions, barriers, math\",\n * \"Atomics and printf\", \"Groups\", \"Split barriers\")."),
    ("/* work-item functions (" + S + "1) */                                        \\",
     "/* work-item functions (docs/REFERENCE.md) */                             \\"),
    ("/* relaxed atomics (" + S + "1) */                                            \\",
     "/* relaxed atomics (" + REF % "Atomics and printf" + ") */                          \\"),
    ("/* group constructors (" + S + "1.1); get_fixed_size_group is a keyword */    \\",
     "/* group constructors; get_fixed_size_group is a keyword */              \\"),
    ("/* split barriers (" + S + "1.3) */                                           \\",
     "/* split barriers (" + BARRIERS + ") */                   \\"),
    ("/* " + S + "1.1, \u00a71.3: group, barrier and token types. */",
     "/* " + GROUPS + ", \"Split barriers\": group, barrier and token types. */"),
    ("additions of " + S + "1 (kernel,", "additions of docs/REFERENCE.md (kernel,"),
    ("/* " + S + "1: [[reqd_work_group_size", "/* " + REF % "Kernels, address spaces and attributes" + ": [[reqd_work_group_size"),
    ("/* " + S + "1.1: get_fixed_size_group<N>(parent) */", "/* " + GROUPS + ": get_fixed_size_group<N>(parent) */"),
    ("the C preprocessor of SGC (" + S + "1: #include,",
     "the C preprocessor of SGC (" + REF % "Declarations, functions and statements" + ": #include,"),
    ("Group kinds of " + S + "1.1, in the order the spec lists them.",
     "Group kinds of " + GROUPS + ", in the order it lists them."),
    ("nvptx tier of " + S + "2", "nvptx tier of " + TIERS),
    ("OpenCL tier (" + S + "2):", "OpenCL tier (" + TIERS + "):"),
    ('(docs/RUNTIME.md "ABI"):', '(docs/RUNTIME.md "ABI and names"):'),
    (' * (docs/GROUPS.md, "Work-group strategies"); the build',
     ' * (docs/GROUPS.md "Work-group strategies"); the build'),
    # samples/: moved sections and the reference by number
    ('bench/RESULTS.md, "GPU run 3" and "GPU run 4"', 'bench/history/algorithms.md "GPU run 3" and "GPU run 4"'),
    ('(bench/RESULTS.md, GPU run 5)', '(bench/history/algorithms.md "GPU run 5")'),
    ('(bench/RESULTS.md, "GPU run 5")', '(bench/history/algorithms.md "GPU run 5")'),
    ('docs/RUNTIME.md, "Several devices and MPI"', 'docs/RUNTIME.md "Several devices and MPI"'),
    # the generic forms last
    (S + "1.1", GROUPS),
    (S + "1.2", SPECS),
    (S + "1.3", BARRIERS),
]
REFERENCE_NUMBERS = {"1": "Base language", "2": "Kernels, address spaces and attributes",
                     "3": "Work-item functions, barriers, math", "4": "Atomics and printf",
                     "5": "Specialization constants", "6": "Groups", "7": "Split barriers"}
NUMBER_FORM = re.compile(r"((?:docs/)?REFERENCE\.md) \u00a7(\d)(?![\d.])")
PASTED_INTO_OUTPUT = re.compile(r"^compiler/emit/(opencl/[^/]+\.cl|cuda/[^/]+\.cuh|emit_groups\.c)$")
# This script and the checker spell the old forms on purpose; the goldens
# are sgcc's output.
NOT_REWRITTEN = {"scripts/fix_citations.py", "tests/docs/citations.py", "tests/docs/check_docs.py"}
EXTENSIONS = (".c", ".h", ".y", ".l", ".def", ".py", ".sh", ".sgc", ".cl", ".cu", ".cuh",
              ".inc", ".build", ".json", ".scd")


def source_files(root):
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "subprojects"
                         and not os.path.isdir(os.path.join(top, d, "meson-private")))
        for name in sorted(files):
            if name.endswith(EXTENSIONS) or name == "KNOWN_FAILURES":
                yield os.path.relpath(os.path.join(top, name), root).replace(os.sep, "/")


def same_width(old, new):
    """A macro line keeps its backslash, and a ruler comment its width, in
    the column where they were."""
    if old.endswith("\\"):
        return new[:-1].rstrip().ljust(len(old) - 1) + "\\"
    if old.rstrip("-").endswith(" ") and new.rstrip("-") != new:
        body = new.rstrip("-")
        return body + "-" * max(3, len(old) - len(body))
    return new


def rewrite(text, json=False):
    for old, new in RULES:
        new = same_width(old, new)
        text = text.replace(old, new.replace('"', '\\"') if json else new)
    return NUMBER_FORM.sub(lambda m: '%s "%s"' % (m.group(1), REFERENCE_NUMBERS[m.group(2)]), text)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    left = []
    for path in source_files(root):
        if (PASTED_INTO_OUTPUT.match(path) and not path.endswith("emit_groups.c")) \
                or path in NOT_REWRITTEN or path.startswith("tests/golden/"):
            continue
        full = os.path.join(root, path)
        try:
            with open(full, encoding="utf-8") as f:
                text = f.read()
        except UnicodeDecodeError:
            continue
        new = text if path.endswith("emit_groups.c") else rewrite(text, path.endswith(".json"))
        if path.endswith("emit_groups.c"):
            # Only the file's own comments; the string it prints keeps its number.
            new = "\n".join(rewrite(l) if not l.lstrip().startswith("emit_printf") else l
                            for l in text.split("\n"))
        if new != text:
            with open(full, "w", encoding="utf-8") as f:
                f.write(new)
            print("rewrote", path)
        left += ["%s: %s" % (path, l.strip()) for l in new.splitlines()
                 if S in l or "STYLE \u00a7" in l]
    for line in left:
        print("not covered:", line)
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
