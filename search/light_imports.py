"""Import Whoosh without three modules it pulls in but never uses on the search path.

`whoosh.compat` imports urllib.request (and with it http.client and email) for a download helper,
its cached-property dependency imports asyncio to support coroutines, and `whoosh.query` imports
the English morphology of its Variations query: together about 40 ms of a 170 ms
`mtgrules search`. While Whoosh is imported, deferred modules answer for them: the
attributes Whoosh takes at import are light wrappers, and any other attribute imports the real
module and is taken from it, so a Whoosh or cached-property upgrade that uses more of either
module is slower, never broken (a submodule imported meanwhile, `import asyncio.events`, imports
the real package first). The deferred modules are removed from `sys.modules` right
after, so any later `import urllib.request` or `import asyncio` gets the real module.
`tests/test_startup.py` checks that `search` loads neither."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class DeferredModule(types.ModuleType):
    """A module's stand-in: its own attributes, else the real module's, imported then."""

    def __getattr__(self, attribute: str) -> Any:
        # The import system asks every module for __path__ (`from urllib.request import x`
        # does): a plain module has none, and saying so keeps the real one unimported. A
        # package's is the real package's, to import its submodules (`import asyncio.events`).
        if attribute == "__path__" and not _is_package(self.__name__):
            raise AttributeError(attribute)
        return getattr(_real(self.__name__), attribute)


def _is_package(name: str) -> bool:
    """Whether the real module is a package, found without importing it (find_spec would
    answer from the stand-in in `sys.modules`, whose __spec__ is None: it steps aside)."""
    stand_in = sys.modules.pop(name, None)
    try:
        spec = importlib.util.find_spec(name)
    finally:
        if stand_in is not None:
            sys.modules[name] = stand_in
    return spec is not None and spec.submodule_search_locations is not None


def _real(name: str) -> types.ModuleType:
    """The real module, whether or not a stand-in is in `sys.modules` meanwhile."""
    stand_in = sys.modules.get(name)
    if isinstance(stand_in, DeferredModule):
        del sys.modules[name]
        try:
            return importlib.import_module(name)
        finally:
            if name not in sys.modules:
                sys.modules[name] = stand_in
    return importlib.import_module(name)


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    return _real("urllib.request").urlretrieve(*args, **kwargs)


def _ensure_future(*args: Any, **kwargs: Any) -> Any:
    return _real("asyncio").ensure_future(*args, **kwargs)


def _variations(*args: Any, **kwargs: Any) -> Any:
    return _real("whoosh.lang.morph_en").variations(*args, **kwargs)


STAND_INS: dict[str, dict[str, Any]] = {
    "urllib.request": {"urlretrieve": _urlretrieve},
    "asyncio": {
        "iscoroutinefunction": inspect.iscoroutinefunction,
        "ensure_future": _ensure_future,
    },
    # English morphological variations for Whoosh's Variations query, which we never build:
    # some 300 regular expressions compiled at import.
    "whoosh.lang.morph_en": {"variations": _variations},
}


@contextmanager
def light_imports() -> Iterator[None]:
    installed = {}
    for name, attributes in STAND_INS.items():
        if name not in sys.modules:
            module = DeferredModule(name, "stand-in while Whoosh is imported")
            module.__dict__.update(attributes)
            sys.modules[name] = installed[name] = module
    try:
        yield
    finally:
        for name, module in installed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
