"""Parsing operator schemas ("name.overload(args) -> returns") into the
argument and return types the case generator needs. Only what the
conformance cases use: base types with alias annotations removed, optional
and list markers, defaults and keyword-only markers."""

import os
import re
import sys
from dataclasses import dataclass, field
from typing import List, Optional

# One splitter for the project's parsers (C declarations, schemas).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "abi_checks"))
from abi_lib import split_top_level as _split_top  # noqa: E402


@dataclass
class Arg:
    name: str
    type: str            # alias annotation removed: "Tensor[]", "int?", "SymInt[]", ...
    default: Optional[str]
    mutable: bool        # Tensor(a!)
    kwarg_only: bool


@dataclass
class Schema:
    name: str            # "add" (no namespace)
    overload: str        # "Tensor" or ""
    args: List[Arg] = field(default_factory=list)
    returns: List[str] = field(default_factory=list)  # return types, alias annotations removed
    text: str = ""

    @property
    def full_name(self) -> str:
        return self.name + ("." + self.overload if self.overload else "")


_ALIAS = re.compile(r"\([^)]*\)")


def _base_type(type_text: str) -> (str, bool):
    mutable = "!" in type_text
    base = _ALIAS.sub("", type_text)
    base = re.sub(r"\[\d+\]", "[]", base)  # int[2] -> int[]
    return base, mutable


def parse(text: str) -> Schema:
    match = re.match(r"^([\w.]+)\((.*)\)\s*->\s*(.*)$", text.strip())
    if not match:
        raise ValueError("not a schema: " + text)
    full, args_text, returns_text = match.groups()
    name, _, overload = full.partition(".")
    schema = Schema(name=name, overload=overload, text=text.strip())
    kwarg_only = False
    for part in _split_top(args_text):
        if part == "*":
            kwarg_only = True
            continue
        default = None
        if "=" in part:
            part, default = part.split("=", 1)
        type_text, arg_name = part.rsplit(" ", 1)
        base, mutable = _base_type(type_text.strip())
        schema.args.append(Arg(arg_name.strip(), base, default, mutable, kwarg_only))
    returns_text = returns_text.strip()
    if returns_text.startswith("(") and returns_text.endswith(")"):
        returns_text = returns_text[1:-1]
    for part in _split_top(returns_text):
        base, _ = _base_type(part.split(" ")[0])
        schema.returns.append(base)
    return schema


def read_native_functions(path: str) -> List[Schema]:
    """The `func:` entries of a native_functions.yaml, with the section
    header (the comment block title) each appears under."""
    schemas = []
    section = ""
    pending_rule = False
    block_titled = False
    with open(path) as f:
        for line in f:
            stripped = line.strip()
            if stripped.startswith("# ---"):
                pending_rule = not pending_rule
                continue
            if pending_rule and stripped.startswith("# "):
                if not block_titled:
                    section = stripped[2:]
                    block_titled = True
                continue
            block_titled = False
            if line.startswith("- func:"):
                schema = parse(line[len("- func:"):].strip())
                schema.section = section
                schemas.append(schema)
    return schemas
