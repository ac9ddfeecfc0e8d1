"""Runs the pytest suite of the Python package (ctest `python_tests`): python run_pytest.py TESTS_DIR [pytest args].
(Here, not in python/: a script's folder leads sys.path, and python/myriad without the extension would shadow the
built package.)

Exits 77 (ctest's skip code for this test) with the reason when this interpreter lacks numpy or pytest: the build
was then configured with a bare Python (test.sh configures with build/venv/bin/python, which has them).
"""
import sys


def main() -> int:
    try:
        import numpy  # noqa: F401
        import pytest
    except ImportError as error:
        print(f"python_tests skipped: {sys.executable} lacks {error.name} "
              "(configure with -DPython_EXECUTABLE=build/venv/bin/python after `./test.sh` made it, or install "
              "python/requirements-test.txt)")
        return 77
    # No cache or bytecode in the source tree; -ra lists every skip with its reason.
    return int(pytest.main(["-q", "-ra", "-p", "no:cacheprovider", *sys.argv[1:]]))


if __name__ == "__main__":
    sys.exit(main())
