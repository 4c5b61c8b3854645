"""Exceptions of the sgcc package."""
from __future__ import annotations


class SgccError(Exception):
    """Base class of every error the sgcc package raises."""


class CompileError(SgccError):
    """The SGC source has errors.  str() is sgcc's own text (file:line:col:
    error: message, the source line and a caret); `.diagnostics` is the list
    from --diagnostics-format=json: dicts with file, line, column, severity,
    message."""

    def __init__(self, text: str, diagnostics):
        super().__init__(text)
        self.text = text
        self.diagnostics = list(diagnostics)

    def __str__(self) -> str:
        return self.text


class CompileWarning(UserWarning):
    """A warning sgcc reported for a source that translated."""


class ToolError(SgccError):
    """sgcc could not run or did not finish (not found, bad usage, I/O or
    internal error, killed by a signal: the message names it)."""


class CompileTimeoutError(ToolError, TimeoutError):
    """sgcc ran longer than compile()'s `timeout` and was killed; also a
    built-in TimeoutError.  `.timeout` is the limit in seconds."""

    def __init__(self, message: str, timeout: float):
        super().__init__(message)
        self.timeout = timeout


class SourceNotFoundError(SgccError, FileNotFoundError):
    """compile(path=...) names a file that does not exist: a built-in
    FileNotFoundError (errno ENOENT, `.filename` the path as given) that
    `except sgcc.SgccError` catches too."""


class SpecConstantError(SgccError, ValueError):
    """A specialization-constant value that cannot be bound: unknown name
    or ID, wrong type, out of range, required and unset."""


class UnsupportedError(SgccError):
    """The device cannot run a kernel of the module (same message as sgrt)."""


class ArgumentError(SgccError, TypeError):
    """A kernel launch argument does not match the kernel's parameter."""
