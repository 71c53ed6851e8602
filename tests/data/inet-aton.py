#!/usr/bin/env python3
"""Writes tests/data/inet-aton.tsv: what the C library's inet_aton(3) reads
in each of a few thousand host strings, through Python's socket.inet_aton
(glibc's on the machine that ran it), for tests/readings.rs to compare with
iribis::readings::inet_aton.

The strings are reproducible (a fixed seed): every part count from 0 to 5,
each part decimal, octal (leading 0) or hexadecimal (0x, 0X), at and past
the limits of its place (0xff, 0xffff, 0xffffff, 0xffffffff), with
invalid digits, empty parts, signs, spaces and trailing dots. The answers
are the library's, recorded: run `python3 tests/data/inet-aton.py` to
write them again (glibc 2.36 on Debian 12 wrote the checked-in file).

Columns: the string, then the dotted
address inet_aton reads, or `-` when it reads none.
"""
import os
import random
import socket

HERE = os.path.dirname(os.path.abspath(__file__))


def part(rng, limit):
    value = rng.choice([0, 1, 7, 8, 9, 10, 255, 256, limit, limit + 1, rng.randrange(limit + 2)])
    form = rng.choice(["dec", "oct", "hex", "HEX", "zeros"])
    if form == "dec":
        return str(value)
    if form == "oct":
        return "0" + format(value, "o")
    if form == "hex":
        return "0x" + format(value, "x")
    if form == "HEX":
        return "0X" + format(value, "X")
    return "000" + str(value)


def cases():
    rng = random.Random(3987)
    out = set()
    limits = {1: [0xFFFFFFFF], 2: [0xFF, 0xFFFFFF], 3: [0xFF, 0xFF, 0xFFFF], 4: [0xFF] * 4}
    for _ in range(3000):
        n = rng.choice([1, 2, 3, 4, 4, 4, 5])
        parts = [part(rng, limits.get(n, [0xFF] * 5)[min(i, len(limits.get(n, [0] * 5)) - 1)]) for i in range(n)]
        s = ".".join(parts)
        twist = rng.random()
        if twist < 0.05:
            s += "."
        elif twist < 0.08:
            s = s.replace(".", "..", 1)
        elif twist < 0.11:
            s = "+" + s
        elif twist < 0.14:
            s += "g"
        elif twist < 0.17:
            s = s[:-1] + "8" if s.startswith("0") else s
        elif twist < 0.19:
            s = "0x" + "." + s
        out.add(s)
    out.update(["", ".", "0", "0x", "0X", "00", "08", "09", "0x0", "1.2.3.4.5", "1..2", ".1",
                "127.1", "0x7f.1", "2130706433", "0177.0.0.1", "4294967296", "99999999999999999999",
                "0x100000000", "1.16777216", "1.2.65536", "256.1", "a.b.c.d", "1e1", "-1"])
    return sorted(out)


def main():
    rows = []
    for s in cases():
        try:
            answer = socket.inet_ntoa(socket.inet_aton(s))
        except OSError:
            answer = "-"
        rows.append(f"{s}\t{answer}")
    with open(os.path.join(HERE, "inet-aton.tsv"), "w") as f:
        f.write("# Written by tests/data/inet-aton.py (Python's socket.inet_aton, glibc): do not edit.\n")
        f.write("# string\taddress inet_aton reads, or - for none\n")
        f.write("\n".join(rows) + "\n")


main()
