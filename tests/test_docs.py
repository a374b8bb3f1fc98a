"""Every reference in the repo names a file and section that exist: Markdown links (a file, and
a heading or a Python definition after `#`), `docs/<page>.md#section` in code and ops.yaml, and
no citation of a document that is not in the repo."""

import ast
import fnmatch
import functools
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("*.md", "*.py", "*.yaml", "*.jinja", "*.toml", "Makefile")
SKIPPED = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
DOCS_REFERENCE = re.compile(r"\bdocs/([\w-]+\.md)(?:#([\w-]+))?")
# a file of the repo named in prose or a comment: `runtime/contracts.py`, `docs/ops.md`
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:runtime|codegen|burnpy|generated|tests|benches|examples|docs)/[\w/.-]*\w"
    r"\.(?:py|md|yaml|jinja|pyi))"
)
# citations of documents that live outside the repo (planning notes, a reference snapshot)
OUTSIDE = re.compile(
    "|".join(
        [
            "\u00a7",
            r"\bDESIGN\.md",
            r"\bDESIGN \w",
            r"burn-semantics",
            r"\breference/[\w-]+\.md",
            r"\bseed/",
        ]
    )
)


@functools.cache
def files() -> tuple:
    """The repo's text files, but this one (its examples are broken on purpose): one walk, which
    never enters the skipped folders (the virtual environment alone holds thousands of files)."""
    here = Path(__file__).resolve()
    found = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED)
        for name in sorted(names):
            path = Path(folder, name)
            if any(fnmatch.fnmatchcase(name, p) for p in SOURCES) and path != here:
                found.append(path)
    return tuple(found)


@functools.cache
def headings(path: Path) -> set:
    """The GitHub anchors of a Markdown file's headings (outside code blocks)."""
    anchors, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


@functools.cache
def definitions(path: Path) -> set:
    """The names a Python file defines anywhere: functions, classes, assigned names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def problem(target: Path, anchor: str | None) -> str | None:
    if not target.exists():
        return f"{target.relative_to(ROOT)} does not exist"
    if anchor is None:
        return None
    if target.suffix == ".md" and anchor not in headings(target):
        return f"{target.relative_to(ROOT)} has no section #{anchor}"
    if target.suffix == ".py" and anchor not in definitions(target):
        return f"{target.relative_to(ROOT)} defines no {anchor}"
    return None


def markdown_links():
    for path in files():
        if path.suffix != ".md":
            continue
        text = path.read_text(encoding="utf-8")
        for match in LINK.finditer(text):
            href = match.group(1)
            if re.match(r"[a-z]+:", href):  # https:, mailto:
                continue
            where, _, anchor = href.partition("#")
            target = (path.parent / where).resolve() if where else path
            line = text[: match.start()].count("\n") + 1
            yield f"{path.relative_to(ROOT)}:{line}", target, anchor or None


def docs_references():
    for path in files():
        text = path.read_text(encoding="utf-8")
        for match in DOCS_REFERENCE.finditer(text):
            line = text[: match.start()].count("\n") + 1
            yield f"{path.relative_to(ROOT)}:{line}", ROOT / "docs" / match.group(1), match.group(2)


def test_every_markdown_link_leads_to_a_file_and_section_that_exist():
    broken = [f"{where}: {p}" for where, t, a in markdown_links() if (p := problem(t, a))]
    assert not broken, "\n".join(broken)


def test_every_docs_reference_in_code_names_a_page_and_section_that_exist():
    broken = [f"{where}: {p}" for where, t, a in docs_references() if (p := problem(t, a))]
    assert not broken, "\n".join(broken)


def test_every_repo_file_named_in_code_and_docs_exists():
    missing = [
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}: {match.group(1)}"
        for path in files()
        for text in [path.read_text(encoding="utf-8")]
        for match in REPO_PATH.finditer(text)
        if not (ROOT / match.group(1)).exists()
    ]
    assert not missing, "\n".join(missing)


def test_nothing_cites_a_document_outside_the_repo():
    cited = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not cited, "\n".join(cited)


@pytest.mark.parametrize(
    "href, expected",
    [
        ("semantics.md#the-panics", None),
        ("semantics.md#no-such-section", "docs/semantics.md has no section #no-such-section"),
        ("../runtime/errors.py#BurnPanic", None),
        ("../runtime/errors.py#NoSuchName", "runtime/errors.py defines no NoSuchName"),
        ("missing.md", "docs/missing.md does not exist"),
    ],
)
def test_the_checker_tells_a_broken_link_from_a_good_one(href, expected):
    where, _, anchor = href.partition("#")
    assert problem((ROOT / "docs" / where).resolve(), anchor or None) == expected


def test_every_rule_row_the_docs_name_is_a_row_of_that_table():
    """docs/coverage.md names each module function's rule row (`ConvRules.conv2d`): a renamed
    or moved row would leave the docs pointing at nothing."""
    from burnpy.runtime.autodiff import rules

    named = {
        (table, row)
        for page in (ROOT / "docs").glob("*.md")
        for table, row in re.findall(r"`(\w+Rules)\.(\w+)`", page.read_text())
    }
    assert named
    missing = [
        f"{table}.{row}"
        for table, row in sorted(named)
        if row not in vars(getattr(rules, table, type("none", (), {})))
    ]
    assert not missing, missing
