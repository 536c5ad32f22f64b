#!/usr/bin/env python3
"""Checks the size rules of CONTRIBUTING.md: no Swift file over 350 lines, no function,
initialiser or subscript over 80 lines (from its declaration to its closing brace).

Usage: check-sizes.py DIR...   Prints each breach as `path:line: what` and exits 1 if any.
Functions are found by their declaration keyword and measured by brace matching, with
string literals and line comments left out; closures and computed properties are not
counted as functions.
"""
import os
import re
import sys

MAX_FILE_LINES = 350
MAX_FUNCTION_LINES = 80
MODIFIERS = (r"public|private|fileprivate|internal|package|static|final|override|mutating|nonmutating"
             r"|convenience|required|class|nonisolated|@inlinable|@inline\(__always\)|@usableFromInline")
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:" + MODIFIERS + r")\s+)*"
                         r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript)(?=[\s(<{]|$)")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def code(line):
    """The line without string literals and its trailing comment."""
    return STRING.sub('""', line).split("//")[0]


def function_length(lines, start):
    """Lines from the declaration at `start` to its closing brace, or None (a protocol
    requirement, or no body within the next few lines)."""
    depth = 0
    opened = False
    for j in range(start, len(lines)):
        for ch in code(lines[j]):
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}":
                depth -= 1
        if opened and depth <= 0:
            return j - start + 1
        if not opened and j > start + 8:
            return None
    return None


def check(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    breaches = []
    if len(lines) > MAX_FILE_LINES:
        breaches.append(f"{path}:1: {len(lines)} lines (at most {MAX_FILE_LINES})")
    for i, line in enumerate(lines):
        if line.strip().startswith("//"):
            continue
        m = DECLARATION.match(line)
        if not m:
            continue
        n = function_length(lines, i)
        if n is not None and n > MAX_FUNCTION_LINES:
            breaches.append(f"{path}:{i + 1}: {m.group(1)} is {n} lines (at most {MAX_FUNCTION_LINES})")
    return breaches


def main(roots):
    breaches = []
    for root in roots:
        for folder, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    breaches += check(os.path.join(folder, name))
    for b in breaches:
        print(b)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["Sources"]))
