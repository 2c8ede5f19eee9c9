#!/usr/bin/env python3
"""The front door keeps its promises: README is an index of at most 500 words, its C++ example
is the code examples/quickstart runs (every line, in order), and every relative link in the
README, CONTRIBUTING, CHANGELOG and docs/ names a file that exists."""
import re
import sys
from pathlib import Path

root = Path(sys.argv[1])
problems = []

readme = (root / "README.md").read_text()
words = len(readme.split())
if words > 500:
    problems.append(f"README.md: {words} words, more than 500 (move the detail to docs/)")

blocks = re.findall(r"```cpp\n(.*?)```", readme, re.S)
if len(blocks) != 1:
    problems.append(f"README.md: {len(blocks)} C++ blocks, expected 1 (the quickstart)")
else:
    example = [l.strip() for l in (root / "examples/quickstart/main.cpp").read_text().splitlines()]
    at = 0
    for line in (l.strip() for l in blocks[0].splitlines()):
        if not line:
            continue
        try:
            at = example.index(line, at) + 1
        except ValueError:
            problems.append(f"README.md: the example's line '{line}' is not in "
                            "examples/quickstart/main.cpp (in this order)")
            break

pages = [root / "README.md", root / "CONTRIBUTING.md", root / "CHANGELOG.md"]
pages += sorted((root / "docs").glob("*.md"))
for page in pages:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (page.parent / target.split("#")[0]).resolve()
        if not path.exists():
            problems.append(f"{page.relative_to(root)}: link '{target}' names no file")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
