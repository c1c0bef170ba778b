"""``engine/`` imports nothing async, does no I/O and reads no clock (issue 30); only
its command line, ``engine/__main__.py``, does. A guard read from the sources with
``ast`` until an import-linter contract says the same."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine

ENGINE = Path(engine.__file__).parent
COMMAND_LINE = ENGINE / "__main__.py"
# modules that wait, talk to the world or tell the time
FORBIDDEN = {
    "asyncio",
    "concurrent",
    "datetime",
    "io",
    "os",
    "pathlib",
    "select",
    "shutil",
    "socket",
    "subprocess",
    "sys",
    "threading",
    "time",
    "urllib",
    "zoneinfo",
}
# builtins that read or write outside the program, and the generator seeded by the OS
FORBIDDEN_CALLS = {"print", "open", "input", "SystemRandom"}

SOURCES = sorted(p for p in ENGINE.rglob("*.py") if p != COMMAND_LINE)


def imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def called(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Name):
                names.add(function.id)
            elif isinstance(function, ast.Attribute):
                names.add(function.attr)
    return names


def test_the_guard_reads_every_engine_module() -> None:
    names = {p.relative_to(ENGINE).as_posix() for p in SOURCES}
    assert {"game.py", "simulate.py", "demo.py", "ai/hard.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_an_engine_module_imports_no_clock_no_io_and_nothing_async(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    assert imported(tree) & FORBIDDEN == set()
    assert called(tree) & FORBIDDEN_CALLS == set()
