"""`python -m sgcc ARGS` (and the `sgcc` command a wheel installs) runs the
sgcc executable shipped in the package with ARGS."""
import os
import sys

from ._compile import find_executable


def main():
    exe = find_executable()
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
