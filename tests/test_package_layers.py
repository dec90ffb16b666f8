"""The corpus package's stages import only downwards: model <- read <- library <- align <- terms
<- qa, and the pipeline's packages only downwards too: corpus <- indexer <- search."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each module's layer; a module may import its own layer and those below it.
CORPUS_LAYERS = {
    "corpus.paths": 0,
    "corpus.model": 1,
    "corpus.read": 2,
    "corpus.library": 3,
    "corpus.align": 4,
    "corpus.terms": 5,
    "corpus.qa": 6,
}
PIPELINE_LAYERS = {"corpus": 0, "indexer": 1, "search": 2}


def _layer(module: str, layers: dict[str, int]) -> int | None:
    for prefix, layer in sorted(layers.items(), key=lambda item: -len(item[0])):
        if module == prefix or module.startswith(prefix + "."):
            return layer
    return None


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, lazily too (inside functions), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            found.extend((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return found


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _upward(package: str, layers: dict[str, int]) -> list[str]:
    problems = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if "sources" in path.parts:
            continue
        here = _layer(_module_name(path), layers)
        for line, module in _imports(path):
            there = _layer(module, layers)
            if here is not None and there is not None and there > here:
                problems.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return problems


def test_corpus_stages_import_only_downwards() -> None:
    """No module of corpus/ imports a stage above its own (read never imports align, …)."""
    assert _upward("corpus", CORPUS_LAYERS) == []


def test_pipeline_packages_import_only_downwards() -> None:
    """corpus/ never imports indexer/ or search/, and indexer/ never imports search/."""
    assert _upward("corpus", PIPELINE_LAYERS) + _upward("indexer", PIPELINE_LAYERS) == []
