"""sgcc.compile(): runs the sgcc executable with --emit-json and
--diagnostics-format=json in a private temporary directory, and keeps the
result in an on-disk cache (sgcc/_cache.py) so that a second run of a
script does not run sgcc again."""
from __future__ import annotations

import errno
import json
import numbers
import os
import shutil
import signal
import subprocess
import tempfile
import warnings
from pathlib import Path

from . import _cache
from ._errors import (CompileError, CompileTimeoutError, CompileWarning, SourceNotFoundError,
                      ToolError)
from ._module import Module
from ._targets import NAMES, TARGETS
from ._targets import target as target_row

_TARGETS = ("all",) + NAMES

# compile()'s default limit on one run of sgcc, in seconds: far above what
# any real source needs (a large one translates in well under a second),
# low enough that a runaway translation does not hang a script.
DEFAULT_TIMEOUT = 300


def find_executable() -> str:
    """The sgcc command this package runs: $SGCC_EXE; the one installed in
    the package (wheels); in a development tree the repository's build
    directory ($SGCC_BUILD_DIR, else build/); else `sgcc` on PATH."""
    env = os.environ.get("SGCC_EXE")
    if env:
        if not os.access(env, os.X_OK):
            raise ToolError(f"SGCC_EXE={env} is not an executable file")
        # A relative path is the caller's: sgcc runs in another directory.
        return os.path.abspath(env) if os.sep in env else env
    here = Path(__file__).resolve().parent
    candidates = [here / "_bin" / "sgcc"]
    repo = here.parent.parent
    if _is_source_tree(repo):
        build = os.environ.get("SGCC_BUILD_DIR", "build")
        candidates.append(repo / build / "compiler" / "sgcc")
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which("sgcc")
    if found:
        return found
    raise ToolError("sgcc executable not found: set SGCC_EXE, install the sgcc Python "
                    "package with `pip install .`, or build the repository (meson setup "
                    "build && meson compile -C build)")


def _is_source_tree(repo: Path) -> bool:
    """Whether the package lies in python/ of an sgcc checkout: the root
    meson.build with the compiler's sources next to it (the test does not
    name a file inside compiler/, whose layout changes)."""
    return (repo / "meson.build").is_file() and (repo / "compiler" / "meson.build").is_file()


def _define_args(defines):
    if defines is None:
        return []
    if isinstance(defines, (str, bytes)):
        raise TypeError("defines: a mapping {NAME: value} or a list of 'NAME[=VALUE]' strings")
    items = defines.items() if hasattr(defines, "items") else ((d, None) for d in defines)
    args = []
    for name, value in items:
        if value is None or value is True:
            args.append(f"-D{name}")
        elif value is False:
            args.append(f"-U{name}")
        else:
            args.append(f"-D{name}={value}")
    return args


def _include_args(include_dirs):
    if include_dirs is None:
        return []
    if isinstance(include_dirs, (str, os.PathLike)):
        include_dirs = [include_dirs]
    return [f"-I{os.path.abspath(os.fspath(d))}" for d in include_dirs]


def _absolute_inputs(names, cwd: str, skip_dir: str):
    """`names` (relative to sgcc's working directory `cwd`) as absolute
    paths, each once, without those in `skip_dir` (the private copy of a
    source= text)."""
    out = []
    for n in names:
        p = os.path.normpath(os.path.join(cwd, n))
        if not p.startswith(skip_dir + os.sep) and p not in out:
            out.append(p)
    return out


def _read_depfile(path: Path, cwd: str, skip_dir: str):
    """Absolute paths of the inputs a make-style depfile names, without the
    files in `skip_dir` (the private copy of a source= text)."""
    try:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return []
    text = text.replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    names, cur, i = [], "", 0
    while i < len(deps):
        ch = deps[i]
        if ch == "\\" and i + 1 < len(deps) and deps[i + 1] == " ":
            cur += " "
            i += 2
            continue
        if ch.isspace():
            if cur:
                names.append(cur)
            cur = ""
        elif ch == "$" and deps[i:i + 2] == "$$":
            cur += "$"
            i += 1
        else:
            cur += ch
        i += 1
    if cur:
        names.append(cur)
    return _absolute_inputs(names, cwd, skip_dir)


def _kill(proc):
    """Kills sgcc and anything it started (its own session, below)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass


def _run(cmd, cwd, timeout):
    """Runs sgcc in a session of its own, so that a timeout (or an
    interrupt of the script) kills the whole process group and no child
    keeps the pipes open."""
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, encoding="utf-8", errors="replace",
                                start_new_session=True)
    except OSError as e:
        raise ToolError(f"cannot run {cmd[0]}: {e}") from None
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        proc.communicate()
        raise CompileTimeoutError(f"sgcc did not finish translating {cmd[-1]} within "
                                  f"{timeout:g} s and was killed (sgcc.compile(timeout=...); "
                                  f"None for no limit)", timeout) from None
    except BaseException:
        _kill(proc)
        proc.wait()
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _exit_description(status: int) -> str:
    """"exited with status 2" or "was killed by signal SIGSEGV"."""
    if status >= 0:
        return f"exited with status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = f"{-status}"
    return f"was killed by signal {name}"


def _raise_for(proc, cmd, cwd, timeout):
    """Turns a failed run into CompileError (exit 1) or ToolError, whose
    message says how sgcc ended and keeps what it wrote."""
    if proc.returncode == 1:
        try:
            diags = json.loads(proc.stderr or "[]")
        except ValueError:
            diags = []
        text_cmd = [a for a in cmd if not a.startswith("--diagnostics-format")]
        text_cmd.insert(1, "--color=never")
        text = _run(text_cmd, cwd, timeout).stderr
        raise CompileError(text.rstrip("\n"), diags)
    said = (proc.stderr or proc.stdout or "").strip()
    raise ToolError(f"sgcc {_exit_description(proc.returncode)} translating {cmd[-1]}"
                    + (f":\n{said}" if said else " (it wrote nothing)"))


def _translate(exe, source, path, name, args, target, timeout):
    """Runs sgcc; returns (description, sources, diagnostics, deps, absent):
    sources {target name: emitted text, None when not asked for}, deps the
    files read, absent the paths the include search found no file at (both
    absolute)."""
    with tempfile.TemporaryDirectory(prefix="sgcc-py-") as tmp:
        tmp = os.path.realpath(tmp)
        if source is not None:
            input_name = f"{name}.sgc"
            Path(tmp, input_name).write_text(source, encoding="utf-8")
            cwd = tmp
        else:
            input_name, cwd = os.fspath(path), os.getcwd()
        out = os.path.join(tmp, "out")
        outputs = out if target == "all" else out + target_row(target).extension
        cmd = [exe, "--diagnostics-format=json", "-t", target, "-o", outputs,
               "--emit-json", out + ".json", "-MD", "-MF", out + ".d", *args, input_name]
        proc = _run(cmd, cwd, timeout)
        if proc.returncode != 0:
            _raise_for(proc, cmd, cwd, timeout)
        try:
            diags = json.loads(proc.stderr or "[]")
        except ValueError:
            diags = []
        description = json.loads(Path(out + ".json").read_text(encoding="utf-8"))
        def output(ext, wanted):
            return Path(out + ext).read_text(encoding="utf-8") if wanted else None
        sources = {t.name: output(t.extension, target in ("all", t.name)) for t in TARGETS}
        deps = _read_depfile(Path(out + ".d"), cwd, tmp)
        absent = _absolute_inputs(description.get("absent_includes", []), cwd, tmp)
        return description, sources, diags, deps, absent


# Options compile() sets itself; passing them through `options` would break
# the run (outputs, formats) or make it write nothing.
_RESERVED_OPTIONS = ("-o", "-t", "--target", "--emit-json", "--header", "--diagnostics-format",
                     "-M", "-E", "-fsyntax-only", "--color", "--help", "-h", "--version")


def _extra_args(options):
    if options is None:
        return []
    args = options.split() if isinstance(options, str) else [str(o) for o in options]
    for a in args:
        if a.startswith(_RESERVED_OPTIONS) or a == "-":
            raise ValueError(f"sgcc.compile: option '{a}' is set by sgcc.compile itself")
    return args


def compile(source=None, path=None, *, defines=None, include_dirs=None, target="all",
            name=None, cache=True, werror=False, options=None, timeout=DEFAULT_TIMEOUT):
    """Translates SGC to OpenCL C and/or CUDA C and returns a Module.

    Exactly one of `source` (the SGC text) or `path` (a .sgc file).
    defines: {NAME: value} (None/True: -DNAME, False: -UNAME) or a list of
    'NAME[=VALUE]'.  include_dirs: directories for #include.  target: "all"
    or a target's name ("opencl", "cuda").  name: the module name for
    `source` (default "module"; diagnostics name the source "<name>.sgc").  cache: use the
    on-disk translation cache ($SGCC_CACHE_DIR, default ~/.cache/sgcc).
    werror: -Werror.  options: more sgcc options (a string or a list), e.g.
    "-Wno-target-unsupported".  timeout: seconds one run of sgcc may take
    (default 300; None: no limit), else CompileTimeoutError.  Raises
    CompileError on errors in the source, SourceNotFoundError (a
    FileNotFoundError) when `path` does not exist."""
    if (source is None) == (path is None):
        raise TypeError("sgcc.compile: give exactly one of source= or path=")
    if target not in _TARGETS:
        raise ValueError(f"sgcc.compile: target must be one of {', '.join(_TARGETS)}")
    if source is not None and not isinstance(source, str):
        raise TypeError("sgcc.compile: source must be a str")
    _check_timeout(timeout)
    if path is not None:
        _check_exists(path)
    if name is None:
        name = "module" if path is None else Path(path).stem
    args = _include_args(include_dirs) + _define_args(defines) + _extra_args(options)
    if werror:
        args.append("-Werror")
    exe = find_executable()
    key = None
    if cache and _cache.enabled():
        text = source if source is not None else _read_source(path)
        key = _cache.key(exe, text, {
            "input": f"{name}.sgc" if source is not None else os.fspath(path),
            "cwd": os.getcwd() if source is None else None, "name": name,
            "args": args, "target": target})
        hit = _cache.load(key)
        if hit is not None:
            return _module_from(hit)
    description, sources, diags, deps, absent = _translate(exe, source, path, name, args, target,
                                                           timeout)
    # The cache entry: the description, each target's source under its
    # name, the diagnostics.
    entry = {"description": description, **sources, "diagnostics": diags}
    if key is not None:
        _cache.store(key, entry, deps, absent)
    return _module_from(entry)


def _check_timeout(timeout):
    if timeout is None:
        return
    if isinstance(timeout, bool) or not isinstance(timeout, numbers.Real) or \
            not timeout > 0:
        raise ValueError(f"sgcc.compile: timeout must be a positive number of seconds or "
                         f"None, not {timeout!r}")


def _check_exists(path):
    """SourceNotFoundError for a missing input, before sgcc runs (sgcc would
    say so as a usage error, which is no FileNotFoundError)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        raise SourceNotFoundError(errno.ENOENT, "sgcc.compile: no such SGC source file",
                                  os.fspath(path)) from None
    except OSError:
        pass   # sgcc reports it, as for any other input it cannot read


def _read_source(path):
    try:
        return Path(path).read_bytes().decode("utf-8", "surrogateescape")
    except OSError as e:
        raise ToolError(f"cannot read {os.fspath(path)}: {e.strerror}") from None


def _module_from(entry):
    diags = entry.get("diagnostics") or []
    for d in diags:
        if d.get("severity") == "warning":
            option = f" [{d['option']}]" if d.get("option") else ""
            warnings.warn(f"{d['file']}:{d['line']}:{d['column']}: warning: {d['message']}"
                          f"{option}", CompileWarning, stacklevel=3)
    return Module(entry["description"], *(entry.get(name) for name in NAMES), diagnostics=diags)
