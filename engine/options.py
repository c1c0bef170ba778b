"""What values an option of :class:`~engine.rules.Rules` may take, read from the type of
its field: ``Literal[...]`` lists the choices, ``bool`` is true or false, and a number is
``Annotated[int, Between(low, high)]`` (or ``OneOf(...)`` for a few allowed values);
``| None`` allows "off".

>>> from typing import Annotated
>>> spec = spec_of("target", Annotated[int | None, Between(1, 100)])
>>> spec.bounds, spec.nullable, spec.check(None), spec.check(50)
((1, 100), True, None, None)
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from engine.errors import RulesError


@dataclass(frozen=True)
class Between:
    """A whole number from ``low`` to ``high``."""

    low: int
    high: int


@dataclass(frozen=True)
class OneOf:
    """One of a few values (``None`` for "off")."""

    values: tuple[Any, ...]

    def __init__(self, *values: Any) -> None:
        object.__setattr__(self, "values", values)


@dataclass(frozen=True)
class OptionSpec:
    """What one option accepts: ``choices`` (a closed list), or a flag, or a number
    within ``bounds`` (``nullable``: may be None, "off")."""

    name: str
    choices: tuple[Any, ...] | None = None
    flag: bool = False
    bounds: tuple[int, int] | None = None
    nullable: bool = False

    def check(self, value: Any) -> None:
        """Raises :class:`RulesError` when ``value`` is not one this option takes."""
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool):
                allowed = ", ".join("off" if c is None else str(c) for c in self.choices)
                raise RulesError(f"option {self.name} cannot be {value!r}; choose one of {allowed}")
        elif self.flag:
            if not isinstance(value, bool):
                raise RulesError(f"option {self.name} is true or false, not {value!r}")
        else:
            assert self.bounds is not None
            low, high = self.bounds
            if value is None and self.nullable:
                return
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RulesError(f"option {self.name} must be a whole number from {low} to {high}")


def spec_of(name: str, hint: Any) -> OptionSpec:
    """The option ``name`` as its field's type ``hint`` declares it."""
    marks: tuple[Any, ...] = ()
    if get_origin(hint) is Annotated:
        hint, *rest = get_args(hint)
        marks = tuple(rest)
    nullable = False
    if get_origin(hint) in (Union, types.UnionType):
        members = [a for a in get_args(hint) if a is not type(None)]
        nullable = len(members) < len(get_args(hint))
        (hint,) = members
    for mark in marks:
        if isinstance(mark, OneOf):
            return OptionSpec(name, choices=mark.values)
        if isinstance(mark, Between):
            return OptionSpec(name, bounds=(mark.low, mark.high), nullable=nullable)
    if get_origin(hint) is Literal:
        return OptionSpec(name, choices=get_args(hint))
    if hint is bool:
        return OptionSpec(name, flag=True)
    raise TypeError(f"option {name}: declare its values (Literal, bool, Between or OneOf)")
