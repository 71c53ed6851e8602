"""The oracle's modules live one directory up; check.py puts it on the path
when run as a script, the tests do it here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
