"""citations.py — the checks of check_docs.py part 5: every section the
repository cites exists, and nothing cites documents that are not in it.

The project's one citation form is a Markdown file's path followed by the
section's heading in double quotes: docs/LOWERING.md "Tangle masks".  The
path is relative to the repository root, or to the citing file's folder
(docs/ pages cite each other as LOWERING.md "Tangle masks"); the heading is
written without its number ("6. Groups" is cited as "Groups") and may stop
before a trailing parenthesis or colon ("Golden and error cases" for
"Golden and error cases (`tests/run_case.py`, ...)").  A citation may wrap
onto the next line of a comment.  Markdown links to an anchor,
[text](FILE.md#anchor), must name an existing heading too.

One exception: the device library and the text sgcc prints into its output
cite the reference by its section number (docs/REFERENCE.md, the section
sign, 6), and some put a comma between file and section, because changing
them would change every output; those numbers must be numbered headings of
docs/REFERENCE.md, and both are refused anywhere else."""
import os
import re
import subprocess

# Spelled in pieces so that a grep for the forbidden citations finds
# nothing in this file.
SECTION = "\u00a7"
FORBIDDEN = ("SPEC " + SECTION, "SPEC" + ".md", "STYLE " + SECTION)

# Where sgcc's output text comes from: the device library sections and the
# emitter that prints the fixed-size comment (and the goldens, which are
# that output).
NUMBER_FORM_ALLOWED = re.compile(
    r"^(compiler/emit/opencl/[^/]+\.cl|compiler/emit/cuda/[^/]+\.cuh|"
    r"compiler/emit/emit_groups\.c|tests/golden/[^/]+\.(cl|cu|h))$")

SKIP_DIRS = {".git", "subprojects", "__pycache__", "node_modules"}
TEXT_EXT = {".md", ".c", ".h", ".y", ".l", ".def", ".py", ".sh", ".sgc", ".cl",
            ".cu", ".cuh", ".inc", ".txt", ".build", ".json", ".scd", ".awk",
            ".err", ".flags", ".toml", ".cfg", ".in", ".1", ""}

# A newline and what a comment or list continues with.
CONTINUATION = re.compile(r"[ \t]*\n[ \t]*(?:(?:#+|\*+|//|--|;)(?=[ \t\n])[ \t]*)?")
# (JSON strings escape the quotes.)
CITATION = re.compile(r'(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)(,?) \\?"([^"\n\\]{1,160})\\?"')
NUMBER_CITATION = re.compile(r"REFERENCE\.md " + SECTION + r"(\d+)(?!\.\d)")
ANCHOR_LINK = re.compile(r"\]\(((?:[\w.-]+/)*[\w.-]+\.md)#([\w-]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def is_build_dir(path):
    return os.path.isdir(os.path.join(path, "meson-private"))


def git_files(root):
    """The files of a git checkout that git tracks or would track (what
    .gitignore ignores, such as build folders and the GPU batch's
    .devbuild/, is not source); None outside a checkout or without git."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sorted(os.path.join(root, f) for f in out.decode("utf-8", "replace").split("\0") if f)


def walked_files(root):
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS
                         and not is_build_dir(os.path.join(top, d)))
        for name in sorted(files):
            yield os.path.join(top, name)


def text_files(root):
    """(relative path, text) of every text file of the source tree."""
    paths = git_files(root)
    for path in paths if paths is not None else walked_files(root):
        if os.path.isfile(path):
            name = os.path.basename(path)
            if os.path.splitext(name)[1] not in TEXT_EXT and name != "KNOWN_FAILURES":
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (UnicodeDecodeError, OSError):
                continue
            yield os.path.relpath(path, root).replace(os.sep, "/"), text


def headings(markdown):
    """The heading lines of a Markdown text, outside fenced code."""
    found, fenced = [], False
    for line in markdown.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            m = re.match(r"#{1,6} +(.+?) *#* *$", line)
            if m:
                found.append(m.group(1))
    return found


def section_names(heading):
    """The names a heading may be cited by."""
    text = re.sub(r"^\d+(\.\d+)*\.? +", "", heading)
    names = {heading, text, text.replace("`", "")}
    for cut in (" (", ": "):
        if cut in text:
            names.add(text.split(cut)[0])
    return names


def slug(heading):
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.lower())
    return text.replace(" ", "-")


def resolve(root, citing, target):
    here = os.path.dirname(citing)
    for base in (here, "", "docs"):
        path = os.path.normpath(os.path.join(base, target)).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, path)):
            return path
    return None


class Pages:
    """Headings of the cited pages, read once."""

    def __init__(self, root):
        self.root, self.cache = root, {}

    def names(self, path):
        if path not in self.cache:
            with open(os.path.join(self.root, path), encoding="utf-8") as f:
                hs = headings(f.read())
            self.cache[path] = (set().union(*(section_names(h) for h in hs)) if hs else set(),
                                {slug(h) for h in hs},
                                {re.match(r"(\d+)\.", h).group(1) for h in hs
                                 if re.match(r"\d+\. ", h)})
        return self.cache[path]


def check_file(root, pages, path, text):
    """Problems with the citations of one file."""
    problems = []
    for bad in FORBIDDEN:
        for i, line in enumerate(text.splitlines()):
            if bad in line:
                problems.append("%s:%d: cites a document not in the repository: %s"
                                % (path, i + 1, line.strip()[:100]))
    joined = CONTINUATION.sub(" ", text)
    for target, comma, name in CITATION.findall(joined):
        page = resolve(root, path, target)
        if page is None:
            problems.append('%s: cites %s "%s", and there is no such file' % (path, target, name))
        elif name not in pages.names(page)[0]:
            problems.append('%s: cites %s "%s", and %s has no such section'
                            % (path, target, name, page))
        elif comma and not NUMBER_FORM_ALLOWED.match(path):
            problems.append('%s: write %s "%s" (no comma between file and section)'
                            % (path, target, name))
    for target, anchor in ANCHOR_LINK.findall(text):
        page = resolve(root, path, target)
        if page is None or anchor not in pages.names(page)[1]:
            problems.append("%s: links to %s#%s, and there is no such heading" % (path, target, anchor))
    for number in NUMBER_CITATION.findall(joined):
        if not NUMBER_FORM_ALLOWED.match(path):
            problems.append('%s: cites REFERENCE.md %s%s: write docs/REFERENCE.md "Section name"'
                            % (path, SECTION, number))
        elif number not in pages.names("docs/REFERENCE.md")[2]:
            problems.append("%s: cites REFERENCE.md %s%s, which has no such numbered section"
                            % (path, SECTION, number))
    return problems


def check_tree(root):
    pages = Pages(root)
    problems = []
    for path, text in text_files(root):
        if path in ("tests/docs/citations.py", "tests/docs/check_docs.py",
                    "scripts/fix_citations.py"):
            continue  # they spell the wrong forms on purpose
        problems += check_file(root, pages, path, text)
    return problems


def check_counts(root, paths):
    """'N bad inputs' in the docs is the number of cases in tests/errors."""
    cases = len([f for f in os.listdir(os.path.join(root, "tests", "errors")) if f.endswith(".err")])
    problems = []
    for path in paths:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            for said in re.findall(r"\b(\d[\d,]*) bad inputs\b", f.read()):
                if int(said.replace(",", "")) != cases:
                    problems.append("%s says %s bad inputs; tests/errors has %d cases"
                                    % (path, said, cases))
    return problems, cases
