"""The checked-in generated sources are what their generators write."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_pow10_table_is_current():
    # The 617 powers of ten of the number formatting (Schubfach).
    r = subprocess.run([sys.executable, os.path.join(ROOT, "Tests", "pow10_table.py"), "--check"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr


def test_pow10_table_entries():
    # Spot values: 10^0, 10^-1 and 10^1 rounded up at 128 bits.
    sys.path.insert(0, os.path.join(ROOT, "Tests"))
    try:
        import pow10_table as t
    finally:
        sys.path.pop(0)
    assert t.g(0) == (1 << 127) + 1
    assert t.g(-1) == 0xCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCD
    assert t.g(1) == (0xA << 124) + 1
