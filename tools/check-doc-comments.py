#!/usr/bin/env python3
"""Checks that every public declaration in the library modules has a doc comment: a `///`
line directly above it (attributes such as @inlinable may stand between).

Usage: check-doc-comments.py DIR...   Prints each declaration without one as `path:line:
declaration` and exits 1 if any. A declaration is a line that starts with `public` or
`open` followed by a declaration keyword or modifier; `public import` lines are not
declarations. Enum cases are not checked (most are documented by their enum).
"""
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)(?:\s*\(set\))?\s+"
    r"(?:(?:static|final|class|mutating|nonmutating|override|convenience|required|private\(set\)"
    r"|fileprivate\(set\)|internal\(set\)|nonisolated|indirect|lazy)\s+)*"
    r"(?:func|init|var|let|struct|enum|class|protocol|typealias|extension|subscript|actor|associatedtype)\b")


def missing(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if not DECLARATION.match(line):
            continue
        j = i - 1
        while j >= 0 and lines[j].strip().startswith("@"):
            j -= 1
        if j < 0 or not lines[j].strip().startswith("///"):
            yield i + 1, line.strip()


def main(roots):
    breaches = 0
    for root in roots:
        for directory, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                for number, declaration in missing(path):
                    print(f"{path}:{number}: {declaration[:100]}")
                    breaches += 1
    if breaches:
        print(f"{breaches} public declaration(s) without a doc comment", file=sys.stderr)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
