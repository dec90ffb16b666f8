"""Import Whoosh without two modules it pulls in but never uses on the search path.

`whoosh.compat` imports urllib.request (and with it http.client and email) for a download helper,
and its cached-property dependency imports asyncio to support coroutines; together about 25 ms
of a 150 ms `mtgrules show`. While Whoosh is imported, light stand-ins answer for them; the
stand-ins are removed right after, so any later `import urllib.request` or `import asyncio`
gets the real module."""

from __future__ import annotations

import inspect
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def _urlretrieve(*args: Any, **kwargs: Any) -> Any:
    from urllib.request import urlretrieve

    return urlretrieve(*args, **kwargs)


def _ensure_future(*args: Any, **kwargs: Any) -> Any:
    import asyncio

    return asyncio.ensure_future(*args, **kwargs)


STAND_INS: dict[str, dict[str, Any]] = {
    "urllib.request": {"urlretrieve": _urlretrieve},
    "asyncio": {
        "iscoroutinefunction": inspect.iscoroutinefunction,
        "ensure_future": _ensure_future,
    },
}


@contextmanager
def light_imports() -> Iterator[None]:
    installed = {}
    for name, attributes in STAND_INS.items():
        if name not in sys.modules:
            module = types.ModuleType(name, "stand-in while Whoosh is imported")
            module.__dict__.update(attributes)
            sys.modules[name] = installed[name] = module
    try:
        yield
    finally:
        for name, module in installed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
