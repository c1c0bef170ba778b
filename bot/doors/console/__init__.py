"""The console door: a chat room in the terminal (``make run`` with no tokens)."""

from bot.doors.console.app import PROMPT, Console, stdin_lines

__all__ = ["PROMPT", "Console", "stdin_lines"]
