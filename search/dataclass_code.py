"""The methods `dataclasses` writes for each dataclass, compiled once and kept, as Python keeps
a module's bytecode.

`@dataclass` writes each class's `__init__`, `__repr__`, `__eq__` (and a frozen one's
`__setattr__`, `__delattr__`, `__hash__`) as source text and compiles it at import: some 0.8 ms
a frozen class, 15 ms of a `show` (18 classes) and more of a `search`, against 0.15 ms with
the compiled code at hand. While `kept()` is installed, `dataclasses` compiles through it: a
text compiled before comes from the cache file beside the package's bytecode (keyed by the
text itself, so an edited class is compiled anew, never given another's code); anything else
is compiled as `dataclasses` would. The cache is written by `write()`, which the bootstrap
runs with the modules' bytecode, and is only read by the commands. A `dataclasses` that no
longer calls `exec` with source text just runs without it: slower, never broken."""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType
from typing import Any

PACKAGES = ("corpus", "indexer", "search")
FORM = "marshalled code by text"  # what the cache holds, beside the interpreter that wrote it
CACHE = Path(__file__).parent / "__pycache__" / f"dataclass-code.{sys.implementation.cache_tag}"


def _read(cache: Path) -> dict[str, bytes]:
    """The kept code, each text's still marshalled (a command makes a fraction of the
    package's classes: making every code object took `show` 4 ms), if this very interpreter
    wrote it (bytecode is only valid for it)."""
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        version, form, found = marshal.loads(cache.read_bytes())  # an older form: ValueError
        if version == sys.version and form == FORM and isinstance(found, dict):
            return found
    return {}


class _Compiler:
    """`exec` as `dataclasses` calls it, from compiled code when the text is known."""

    def __init__(self, known: dict[str, bytes]) -> None:
        self.known = known
        self.compiled: dict[str, CodeType] = {}

    def __call__(self, source: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str):
            kept = self.known.get(source)
            code = marshal.loads(kept) if kept is not None else self.compiled.get(source)
            if code is None:
                # As exec compiles a text for dataclasses.py: its flags, no __future__ of ours.
                code = self.compiled[source] = compile(
                    source, "<string>", "exec", dont_inherit=True
                )
            source = code
        return builtins.exec(source, *args, **kwargs)


@contextlib.contextmanager
def kept(cache: Path = CACHE) -> Iterator[_Compiler]:
    """Within the block, dataclasses are made with the kept compiled methods."""
    compiler = _Compiler(_read(cache))
    had = "exec" in vars(dataclasses)
    previous = vars(dataclasses).get("exec")
    dataclasses.exec = compiler  # type: ignore[attr-defined]  # a global of the module's own
    try:
        yield compiler
    finally:
        if had:
            dataclasses.exec = previous  # type: ignore[attr-defined]
        else:
            del dataclasses.exec  # type: ignore[attr-defined]


def write(cache: Path = CACHE, packages: tuple[str, ...] = PACKAGES) -> int:
    """Import every module of the packages with the compiler installed and keep the code of
    every dataclass they make (in a process of its own: one imported before is not made
    again); the number of texts kept."""
    import importlib
    import pkgutil

    with kept(cache) as compiler:
        compiler.known = {}  # every text compiled anew: the cache holds only today's
        for package in packages:
            module = importlib.import_module(package)
            for info in pkgutil.walk_packages(module.__path__, f"{package}.", lambda _: None):
                with contextlib.suppress(Exception):  # a module needing what is not installed
                    importlib.import_module(info.name)
    cache.parent.mkdir(parents=True, exist_ok=True)
    temporary = cache.with_name(f"{cache.name}.tmp")
    marshalled = {text: marshal.dumps(code) for text, code in compiler.compiled.items()}
    temporary.write_bytes(marshal.dumps((sys.version, FORM, marshalled)))
    temporary.replace(cache)
    return len(compiler.compiled)


if __name__ == "__main__":
    print(f"{write()} dataclass methods compiled into {CACHE}")
