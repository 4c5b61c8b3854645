"""sgcc.compile(): runs the sgcc executable with --emit-json and
--diagnostics-format=json in a private temporary directory, and keeps the
result in an on-disk cache (sgcc/_cache.py) so that a second run of a
script does not run sgcc again."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import warnings
from pathlib import Path

from . import _cache
from ._errors import CompileError, CompileWarning, ToolError
from ._module import Module

_TARGETS = ("all", "opencl", "cuda")


def find_executable() -> str:
    """The sgcc command this package runs: $SGCC_EXE; the one installed in
    the package (wheels); in a development tree the repository's build
    directory ($SGCC_BUILD_DIR, else build/); else `sgcc` on PATH."""
    env = os.environ.get("SGCC_EXE")
    if env:
        if not os.access(env, os.X_OK):
            raise ToolError(f"SGCC_EXE={env} is not an executable file")
        return env
    here = Path(__file__).resolve().parent
    candidates = [here / "_bin" / "sgcc"]
    repo = here.parent.parent
    if (repo / "compiler" / "main.c").is_file():
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


def _run(cmd, cwd):
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, encoding="utf-8",
                              errors="replace")
    except OSError as e:
        raise ToolError(f"cannot run {cmd[0]}: {e}") from None


def _raise_for(proc, cmd, cwd):
    """Turns a failed run into CompileError (exit 1) or ToolError."""
    if proc.returncode == 1:
        try:
            diags = json.loads(proc.stderr or "[]")
        except ValueError:
            diags = []
        text_cmd = [a for a in cmd if not a.startswith("--diagnostics-format")]
        text_cmd.insert(1, "--color=never")
        text = _run(text_cmd, cwd).stderr
        raise CompileError(text.rstrip("\n"), diags)
    raise ToolError(f"sgcc exited with status {proc.returncode}: "
                    f"{(proc.stderr or proc.stdout).strip()}")


def _translate(exe, source, path, name, args, target):
    """Runs sgcc; returns (description, opencl, cuda, diagnostics, deps,
    absent): deps the files read, absent the paths the include search found
    no file at (both absolute)."""
    with tempfile.TemporaryDirectory(prefix="sgcc-py-") as tmp:
        tmp = os.path.realpath(tmp)
        if source is not None:
            input_name = f"{name}.sgc"
            Path(tmp, input_name).write_text(source, encoding="utf-8")
            cwd = tmp
        else:
            input_name, cwd = os.fspath(path), os.getcwd()
        out = os.path.join(tmp, "out")
        outputs = {"all": out, "opencl": out + ".cl", "cuda": out + ".cu"}[target]
        cmd = [exe, "--diagnostics-format=json", "-t", target, "-o", outputs,
               "--emit-json", out + ".json", "-MD", "-MF", out + ".d", *args, input_name]
        proc = _run(cmd, cwd)
        if proc.returncode != 0:
            _raise_for(proc, cmd, cwd)
        try:
            diags = json.loads(proc.stderr or "[]")
        except ValueError:
            diags = []
        description = json.loads(Path(out + ".json").read_text(encoding="utf-8"))
        def output(ext, wanted):
            return Path(out + ext).read_text(encoding="utf-8") if wanted else None
        opencl = output(".cl", target in ("all", "opencl"))
        cuda = output(".cu", target in ("all", "cuda"))
        deps = _read_depfile(Path(out + ".d"), cwd, tmp)
        absent = _absolute_inputs(description.get("absent_includes", []), cwd, tmp)
        return description, opencl, cuda, diags, deps, absent


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
            name=None, cache=True, werror=False, options=None):
    """Translates SGC to OpenCL C and/or CUDA C and returns a Module.

    Exactly one of `source` (the SGC text) or `path` (a .sgc file).
    defines: {NAME: value} (None/True: -DNAME, False: -UNAME) or a list of
    'NAME[=VALUE]'.  include_dirs: directories for #include.  target: "all",
    "opencl" or "cuda".  name: the module name for `source` (default
    "module"; diagnostics name the source "<name>.sgc").  cache: use the
    on-disk translation cache ($SGCC_CACHE_DIR, default ~/.cache/sgcc).
    werror: -Werror.  options: more sgcc options (a string or a list), e.g.
    "-Wno-target-unsupported".  Raises CompileError on errors in the source."""
    if (source is None) == (path is None):
        raise TypeError("sgcc.compile: give exactly one of source= or path=")
    if target not in _TARGETS:
        raise ValueError(f"sgcc.compile: target must be one of {', '.join(_TARGETS)}")
    if source is not None and not isinstance(source, str):
        raise TypeError("sgcc.compile: source must be a str")
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
    description, opencl, cuda, diags, deps, absent = _translate(exe, source, path, name, args,
                                                                target)
    entry = {"description": description, "opencl": opencl, "cuda": cuda,
             "diagnostics": diags}
    if key is not None:
        _cache.store(key, entry, deps, absent)
    return _module_from(entry)


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
    return Module(entry["description"], entry.get("opencl"), entry.get("cuda"), diags)
