"""On-disk cache of translations.

Key: SHA-256 over the source text, the options (defines, include
directories, target, module name, the input's name and, for path=, the
working directory), the sgcc version and the SHA-256 of the sgcc binary
itself, like sgrt's build cache (runtime/cache.c) keys source, options,
device and driver.  An entry also records every file the translation read
through #include with its SHA-256 (from sgcc's depfile), and is used only
while they are unchanged.  Directory: $SGCC_CACHE_DIR, else
$XDG_CACHE_HOME/sgcc, else ~/.cache/sgcc; SGCC_CACHE_DIR=off disables it.
Entries are written to a temporary file and renamed, so concurrent writers
and readers only ever see whole entries."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

FORMAT = "sgcc-py-cache-1"
_exe_info = {}


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
    """The entry stored under `k`, or None (absent, unreadable, or an
    #include'd file changed since)."""
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
    return entry


def store(k: str, entry: dict, deps) -> None:
    """Writes the entry (temporary file + rename); a cache that cannot be
    written is skipped silently: it only costs the next run a translation."""
    data = dict(entry, format=FORMAT)
    try:
        data["deps"] = [[p, _sha256_file(p)] for p in deps]
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
