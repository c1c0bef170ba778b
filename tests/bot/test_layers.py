"""The layers, read from the source: the service imports no platform library and
nothing of render/ (pictures are drawn at delivery, bot/pictures.py), and no adapter
imports storage or reaches into the service's store."""

from __future__ import annotations

import ast
from pathlib import Path

import render.theme
from bot.model import THEMES

BOT = Path(__file__).parents[2] / "bot"
PLATFORMS = {"telegram", "discord"}  # the platform libraries (python-telegram-bot, discord.py)
ADAPTERS = ("telegram", "discord", "console.py", "delivery.py", "timer_loop.py")


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports (absolute names; every import of bot/ is absolute)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def source_of(module: str) -> Path | None:
    parts = module.split(".")
    for path in (
        BOT.parent.joinpath(*parts).with_suffix(".py"),
        BOT.parent.joinpath(*parts, "__init__.py"),
    ):
        if path.exists():
            return path
    return None


def service_modules() -> set[str]:
    """bot.service and every module of bot/ it imports, directly or not."""
    seen: set[str] = set()
    waiting = ["bot.service", "bot.handlers"]
    while waiting:
        module = waiting.pop()
        path = source_of(module)
        if module in seen or path is None or not module.startswith("bot"):
            continue
        seen.add(module)
        waiting += [m for m in imports(path) if m.startswith("bot")]
    return seen


def top(module: str) -> str:
    return module.split(".", 1)[0]


def test_no_module_of_bot_outside_the_adapters_imports_a_platform_library() -> None:
    for path in BOT.rglob("*.py"):
        if path.relative_to(BOT).parts[0] in ("telegram", "discord"):
            continue
        used = {top(m) for m in imports(path)} & PLATFORMS
        assert not used, f"{path.relative_to(BOT.parent)} imports {used}"


def test_the_service_and_the_model_import_nothing_of_render_or_pillow() -> None:
    modules = service_modules()
    assert {"bot.service", "bot.session", "bot.model", "bot.registry", "bot.dispatch"} <= modules
    assert "bot.pictures" not in modules
    for module in sorted(modules):
        path = source_of(module)
        assert path is not None
        used = {top(m) for m in imports(path)} & {"render", "PIL", *PLATFORMS}
        assert not used, f"{module} imports {used}"


def test_no_adapter_imports_storage_or_touches_the_services_store() -> None:
    for name in ADAPTERS:
        root = BOT / name
        for path in [root] if root.is_file() else sorted(root.rglob("*.py")):
            where = path.relative_to(BOT.parent)
            assert "storage" not in {top(m) for m in imports(path)}, f"{where} imports storage"
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and node.attr == "store":
                    raise AssertionError(f"{where}:{node.lineno} reaches into .store")


def test_the_adapters_reach_the_service_through_its_interface_only() -> None:
    """bot.service's GameService (and StorageError), never the modules behind it."""
    inner = service_modules() - {"bot", "bot.service", "bot.model", "bot.registry", "bot.texts",
                                 "bot.describe", "bot.names"}  # fmt: skip
    for name in (*ADAPTERS, "__main__.py"):
        root = BOT / name
        for path in [root] if root.is_file() else sorted(root.rglob("*.py")):
            reached = {m for m in imports(path) if m in inner or m.startswith("bot.handlers")}
            assert not reached, f"{path.relative_to(BOT.parent)} imports {reached}"


def test_every_theme_a_room_may_choose_is_drawn() -> None:
    assert set(THEMES) == set(render.theme.THEMES)
