"""Classes that need an optional library as their base, built on first use so that the package
imports without it (the module's ``__getattr__`` asks :func:`lazy_class`)."""

from __future__ import annotations

import importlib
import sys


def lazy_class(module: str, name: str, mixin: type, base: str, extra: str, doc: str) -> type:
    """The class ``name`` of ``module``: ``mixin`` on top of ``base`` (``"package.module:Class"``),
    kept in the module once built; an ImportError naming the extra to install if ``base`` is
    missing."""
    where, _, base_name = base.partition(":")
    try:
        parent = getattr(importlib.import_module(where), base_name)
    except ImportError as error:  # the optional extra is missing
        raise ImportError(f"{module}.{name} needs {extra}") from error
    cls = type(name, (mixin, parent), {"__doc__": doc, "__module__": module})
    setattr(sys.modules[module], name, cls)
    return cls
