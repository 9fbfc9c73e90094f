#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Description: every function of the library has unwind info: an FDE of
# .eh_frame covers each FUNC symbol's [start, end), so that an unwinder
# (a crash reporter's backtrace) gets out of any routine, the assembly ones
# (UA_ENTRY/UA_END) included.
#
# Usage: fde_coverage.py READELF LIBRARY...
import re
import subprocess
import sys

# The C runtime's pieces linked into every shared library (crti.o), not ours
NOT_OURS = {"_init", "_fini", "call_weak_fn", "__x86.get_pc_thunk.bx"}


def run(readelf, *args):
    return subprocess.run([readelf, *args], check=True, capture_output=True,
                          text=True).stdout


def fde_ranges(readelf, lib):
    """The [lo, hi) of every FDE, merged where they touch"""
    spans = sorted((int(lo, 16), int(hi, 16)) for lo, hi in re.findall(
        r"FDE cie=\w+ pc=([0-9a-f]+)\.\.([0-9a-f]+)",
        run(readelf, "--debug-dump=frames", lib)))
    merged = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return merged


def functions(readelf, lib):
    """(name, start, end) of each defined FUNC symbol of .symtab"""
    for line in run(readelf, "-sW", lib).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[6] != "UND":
            size = int(f[2], 0)
            if size and f[7] not in NOT_OURS:
                start = int(f[1], 16)
                yield f[7], start, start + size


def check(readelf, lib):
    spans = fde_ranges(readelf, lib)
    bad, count = [], 0
    for name, start, end in functions(readelf, lib):
        count += 1
        if not any(lo <= start and end <= hi for lo, hi in spans):
            bad.append(f"{name} [{start:#x}, {end:#x})")
    for b in bad:
        print(f"{lib}: no FDE covers {b}")
    print(f"{lib}: {count} functions, {count - len(bad)} covered by an FDE")
    return count > 0 and not bad


def main():
    if len(sys.argv) < 3:
        print("usage: fde_coverage.py READELF LIBRARY...", file=sys.stderr)
        return 2
    ok = [check(sys.argv[1], lib) for lib in sys.argv[2:]]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
