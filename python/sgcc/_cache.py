"""On-disk cache of translations.

Key: SHA-256 over the source text, the options (defines, include
directories, target, module name, the input's name and, for path=, the
working directory), the sgcc version and the SHA-256 of the sgcc binary
itself, like sgrt's build cache (runtime/cache.c) keys source, options,
device and driver.  An entry also records every file the translation read
through #include with its SHA-256 (from sgcc's depfile) and every path the
include search looked at and found no file at (the module description's
"absent_includes"), and is used only while the files are unchanged and
those paths still hold no file: with -Id1 -Id2 and mul.h only in d2, a
d1/mul.h made later is what a new translation would include.  Directory:
$SGCC_CACHE_DIR, else $XDG_CACHE_HOME/sgcc, else ~/.cache/sgcc;
SGCC_CACHE_DIR=off disables it.  Entries are written to a temporary file
and renamed, so concurrent writers and readers only ever see whole entries;
a temporary left by a killed writer is removed by the first store of a
later process once it is an hour old."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

FORMAT = "sgcc-py-cache-2"
STALE_TEMPORARY_SECONDS = 3600
_exe_info = {}
_swept = set()


def directory() -> Path:
    env = os.environ.get("SGCC_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sgcc"


def enabled() -> bool:
    return os.environ.get("SGCC_CACHE_DIR", "").lower() not in ("off", "0", "none")


def _sha256_file(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def exe_identity(exe: str):
    """(sha256 of the binary, `sgcc --version`), memoised per process by
    the file's identity (path, inode, size, mtime)."""
    st = os.stat(exe)
    stamp = (os.path.realpath(exe), st.st_ino, st.st_size, st.st_mtime_ns)
    if stamp not in _exe_info:
        version = subprocess.run([exe, "--version"], capture_output=True,
                                 text=True).stdout.strip()
        _exe_info[stamp] = (_sha256_file(exe), version)
    return _exe_info[stamp]


def key(exe: str, source_text: str, options: dict) -> str:
    digest, version = exe_identity(exe)
    material = json.dumps({"format": FORMAT, "sgcc": version, "binary": digest,
                           "options": options, "source": source_text}, sort_keys=True)
    return hashlib.sha256(material.encode("utf-8", "surrogateescape")).hexdigest()


def _entry_path(k: str) -> Path:
    return directory() / k[:2] / f"{k}.json"


def load(k: str):
    """The entry stored under `k`, or None (absent, unreadable, an
    #include'd file changed since, or a file now where the include search
    found none)."""
    try:
        entry = json.loads(_entry_path(k).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if entry.get("format") != FORMAT:
        return None
    for path, digest in entry.get("deps", []):
        try:
            if _sha256_file(path) != digest:
                return None
        except OSError:
            return None
    if any(os.path.isfile(p) for p in entry.get("absent", [])):
        return None
    return entry


def _sweep_stale_temporaries(root: Path) -> None:
    """Removes temporaries (.tmp-*.json) a writer killed before its rename
    left, once they are an hour old; once per process and directory."""
    if root in _swept:
        return
    _swept.add(root)
    limit = time.time() - STALE_TEMPORARY_SECONDS
    for p in root.glob("??/.tmp-*.json"):
        try:
            if p.stat().st_mtime < limit:
                p.unlink()
        except OSError:
            pass


def store(k: str, entry: dict, deps, absent=()) -> None:
    """Writes the entry (temporary file + rename); a cache that cannot be
    written is skipped silently: it only costs the next run a translation.
    `deps`: the files read (their contents are checked on load); `absent`:
    the paths the include search found no file at (checked still absent)."""
    data = dict(entry, format=FORMAT)
    try:
        data["deps"] = [[p, _sha256_file(p)] for p in deps]
        data["absent"] = list(absent)
        _sweep_stale_temporaries(directory())
        path = _entry_path(k)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


def clear() -> int:
    """Removes every entry; returns how many."""
    n = 0
    for p in directory().glob("??/*.json"):
        try:
            p.unlink()
            n += 1
        except OSError:
            pass
    return n
