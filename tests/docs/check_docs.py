#!/usr/bin/env python3
"""check_docs.py SOURCE_ROOT SGCC CC... — TAP.  Keeps the documentation
complete against the code:

1. docs/REFERENCE.md covers every construct of SGC: every keyword of
   compiler/lex/keywords.def, every built-in and member of
   compiler/ast/builtins.h, every group operator of compiler/ast/group_ops.def,
   and every kernel attribute sema knows
   (compiler/sema/sema.c) appears in the first column of a table row whose
   "OpenCL C" and "CUDA C" cells are both filled (its lowering on each
   backend).  The lists are read from the compiler's own tables, and each
   must have at least as many entries as today, so that a parsing slip cannot
   make the check pass on an empty list.
2. docs/RUNTIME.md names every public function of runtime/sgrt.h (after the
   preprocessor, so the X-macro setters count one by one), every enum
   constant, typedef and public macro.
3. Every SGC example in docs/TUTORIAL.md (a ```c block with a kernel)
   translates with sgcc; its ```cuda block is what sgcc really writes for
   samples/consumer/kernels/ballot_sums.sgc (each line appears, in order, in
   the output); its host program (the ```c block with main) is complete: it
   compiles (-Wall -Wextra -Werror) against sgrt.h and the headers that
   `sgcc --header` makes for the consumer's kernels.
4. Citations (tests/docs/citations.py): in every text file of the tree,
   each cited section (docs/LOWERING.md "Tangle masks", a link to
   FILE.md#anchor, and the docs/REFERENCE.md number form of the text sgcc
   pastes into its output) exists, nothing cites the specification or the
   style guide the project was written from (documents not in the
   repository), and "N bad inputs" in the docs is the number of
   tests/errors cases.  A planted bad citation must be reported."""
import os
import re
import subprocess
import sys
import tempfile

import citations

root, sgcc, cc = sys.argv[1], sys.argv[2], sys.argv[3:]
n = failed = 0


def check(name, ok, detail=""):
    global n, failed
    n += 1
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name))
    if not ok:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print("#   " + line)


def read(*path):
    with open(os.path.join(root, *path), encoding="utf-8") as f:
        return f.read()


# ---- 1. the language reference ----------------------------------------------
keywords = re.findall(r'^KEYWORD\(\w+, "([^"]+)"\)', read("compiler", "lex", "keywords.def"), re.M)
builtins_h = read("compiler", "ast", "builtins.h")


def x_table(macro):
    body = re.search(r"#define %s\(X\)(.*?)\n\n" % macro, builtins_h, re.S)
    return re.findall(r'X\(\w+, "([^"]+)"', body.group(1)) if body else []


builtins = x_table("BUILTINS")
methods = x_table("METHODS")
group_ops = re.findall(r'^GROUP_OP\(\w+, "([^"]+)"', read("compiler", "ast", "group_ops.def"), re.M)
attributes = re.findall(r'strcmp\(a->name, "(\w+)"\) == 0', read("compiler", "sema", "sema.c"))
for what, names, least in (("keywords.def keywords", keywords, 76),
                           ("builtins.h built-ins", builtins, 60),
                           ("builtins.h members", methods, 17),
                           ("group_ops.def group operators", group_ops, 9),
                           ("kernel attributes in sema.c", attributes, 2)):
    check("%s read: %d (at least %d)" % (what, len(names), least), len(names) >= least, names)
constructs = sorted(set(keywords + builtins + methods + group_ops + attributes))


def covered_in(markdown):
    """Identifiers in backticks in the first cell of table rows with both
    an OpenCL C and a CUDA C cell filled."""
    covered = {}
    header = None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            header = cells
            ocl = next((i for i, c in enumerate(header) if "OpenCL" in c), None)
            cuda = next((i for i, c in enumerate(header) if "CUDA" in c), None)
            continue
        if set("".join(cells)) <= set("-: ") or ocl is None or cuda is None:
            continue
        if len(cells) <= max(ocl, cuda) or not cells[ocl] or not cells[cuda]:
            continue
        for span in re.findall(r"`([^`]+)`", cells[0]):
            for word in re.findall(r"[A-Za-z_]\w*", span):
                covered.setdefault(word, line[:80])
    return covered


reference = read("docs", "REFERENCE.md")
covered = covered_in(reference)
missing = [c for c in constructs if c not in covered]
check("REFERENCE.md covers all %d constructs (with OpenCL C and CUDA C lowering)" % len(constructs),
      not missing, "not covered: " + " ".join(missing))
for c in missing:
    check("REFERENCE.md covers '%s'" % c, False)
# The check itself must be able to fail: a copy of the page without the
# split-barrier section must miss those constructs.
cut = reference.split("## 7. Split barriers")[0]
check("the coverage check notices a missing section",
      "async_barrier" not in covered_in(cut) and "arrive_and_wait" not in covered_in(cut))

# ---- 2. the runtime API reference -------------------------------------------
header = read("runtime", "sgrt.h")
pre = subprocess.run(cc + ["-E", "-P", "-x", "c", "-"], input=header, capture_output=True,
                     text=True)
check("runtime/sgrt.h preprocesses", pre.returncode == 0, pre.stderr)
# Only what sgrt.h itself declares: drop the system headers' text.
text = pre.stdout
functions = sorted(set(re.findall(r"\b(sgrt_\w+)\s*\(", text)))
typedefs = sorted(set(re.findall(r"}\s*(sgrt_\w+)\s*;", text) +
                      re.findall(r"typedef\s+struct\s+\w+\s+(sgrt_\w+)\s*;", text)))
enums = sorted(set(re.findall(r"\b(SGRT_[A-Z0-9_]+)\b", text)))
undefs = set(re.findall(r"#undef\s+(\w+)", header))
macros = sorted(set(m for m in re.findall(r"#define\s+(SGRT_\w+)", header)
                    if m not in undefs and m != "SGRT_H"))
for what, names, least in (("functions", functions, 45), ("typedefs", typedefs, 12),
                           ("enum constants", enums, 30), ("macros", macros, 6)):
    check("sgrt.h %s read: %d (at least %d)" % (what, len(names), least), len(names) >= least,
          names)
runtime_md = read("docs", "RUNTIME.md")
for what, names in (("function", functions), ("typedef", typedefs), ("enum constant", enums),
                    ("macro", macros)):
    missing = [x for x in names if not re.search(r"\b%s\b" % re.escape(x), runtime_md)]
    check("RUNTIME.md names every public %s of sgrt.h (%d)" % (what, len(names)), not missing,
          "missing: " + " ".join(missing))

# ---- 3. the tutorial's SGC examples translate --------------------------------
tutorial = read("docs", "TUTORIAL.md")
blocks = [b for b in re.findall(r"```c\n(.*?)```", tutorial, re.S) if "kernel void" in b]
check("TUTORIAL.md has SGC examples", len(blocks) >= 2, len(blocks))
with tempfile.TemporaryDirectory() as tmp:
    for i, block in enumerate(blocks):
        src = os.path.join(tmp, "example%d.sgc" % i)
        with open(src, "w") as f:
            f.write(block)
        r = subprocess.run([sgcc, "--color=never", "-I", os.path.join(root, "samples", "consumer",
                                                                     "kernels"), src],
                           capture_output=True, text=True)
        first = block.strip().splitlines()[0]
        check("TUTORIAL.md example %d translates (%s)" % (i + 1, first[:50]), r.returncode == 0,
              r.stderr)

# ---- 3b. the tutorial's CUDA excerpt is real output ----------------------------
kernels = os.path.join(root, "samples", "consumer", "kernels")
cuda_blocks = re.findall(r"```cuda\n(.*?)```", tutorial, re.S)
check("TUTORIAL.md shows sgcc's CUDA C", len(cuda_blocks) == 1, len(cuda_blocks))
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "ballot_sums.cu")
    r = subprocess.run([sgcc, "--color=never", "-t", "cuda", "-I", kernels, "-o", out,
                        os.path.join(kernels, "ballot_sums.sgc")], capture_output=True, text=True)
    emitted = open(out).read().splitlines() if r.returncode == 0 else []
    # The #line directive names the file as the reader's command would.
    shown = [l for l in (cuda_blocks[0] if cuda_blocks else "").splitlines()
             if l.strip() and not l.startswith("#line")]
    pos, missing = 0, []
    for line in shown:
        while pos < len(emitted) and emitted[pos] != line:
            pos += 1
        if pos == len(emitted):
            missing.append(line)
            pos = 0
    check("TUTORIAL.md's CUDA C appears, line by line, in sgcc's output", r.returncode == 0
          and not missing, r.stderr + "\n".join("not in the output: " + m for m in missing))

    # ---- 3c. the tutorial's host program compiles ------------------------------
    hosts = [b for b in re.findall(r"```c\n(.*?)```", tutorial, re.S) if "int main" in b]
    check("TUTORIAL.md has one complete host program", len(hosts) == 1, len(hosts))
    ok, log = False, ""
    if hosts:
        for k in ("ballot_sums", "block_scan"):
            r = subprocess.run([sgcc, "--color=never", "-I", kernels, "-o", os.path.join(tmp, k),
                                "--header", os.path.join(tmp, k + ".h"),
                                os.path.join(kernels, k + ".sgc")], capture_output=True, text=True)
            log += r.stderr
        host = os.path.join(tmp, "main.c")
        with open(host, "w") as f:
            f.write(hosts[0])
        r = subprocess.run(cc + ["-std=c17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                                 "-I", tmp, "-I", os.path.join(root, "runtime"), host],
                           capture_output=True, text=True)
        ok, log = r.returncode == 0, log + r.stderr
    check("TUTORIAL.md's host program compiles against sgrt.h and the generated headers", ok, log)

# ---- 4. citations -------------------------------------------------------------
problems = citations.check_tree(root)
check("every cited section exists, and nothing cites a document not in the repository",
      not problems, "\n".join(problems))
problems, cases = citations.check_counts(root, ["README.md"] + [
    os.path.join("docs", f) for f in sorted(os.listdir(os.path.join(root, "docs")))
    if f.endswith(".md")])
check("the docs give the number of tests/errors cases (%d)" % cases, not problems,
      "\n".join(problems))
# The check must be able to fail: planted citations of a missing section, a
# missing file, a missing anchor, the number form outside sgcc's output and
# the specification must each be reported.
planted = ('docs/LOWERING.md "No such section"\nnosuch/PAGE.md "Groups"\n'
           '[x](docs/GROUPS.md#no-such-anchor)\nREFERENCE.md ' + citations.SECTION + '6\n'
           + citations.FORBIDDEN[0] + '1.1\n')
found = citations.check_file(root, citations.Pages(root), "tests/planted.c", planted)
good = citations.check_file(root, citations.Pages(root), "tests/planted.c",
                            'docs/LOWERING.md "Tangle masks", docs/REFERENCE.md "Groups",\n'
                            '# docs/RELIABILITY.md "Golden and error\n# cases"\n')
check("the citation check reports planted bad citations and accepts good ones",
      len(found) == 5 and not good, "\n".join(found + good))

print("1..%d" % n)
sys.exit(1 if failed else 0)
