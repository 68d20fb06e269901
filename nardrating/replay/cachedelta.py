"""A kept JSON value as a small patch on another: what an add-match changes of a list's kept state.

A federation list's kept state is columns of 10,000 values (replay/cachestandings.py), and a match
entered after every entry changes a few of them; writing the whole state again at every add-match
took a tenth of the command. `diff` gives the change from one value to another, as exactly as
JSON keeps them (an int stays an int, 0.0 and -0.0 differ), and `patch` applies it, making new
containers only along the changed paths: what it does not change stays the very object it was,
so that the diff of the patched value's successor against the same first value is quick again.

A patch is {"v": value} (the value, whole), {"d": {key: patch}} (a dict of the same keys in the
same order, some of its values changed) or {"l": [[index, value], ...], "+": [value, ...]} (a list
with some of its items replaced, and with "+" items added at its end: an open period's records). `patch` checks the shape against the value it applies to
and raises Bad for one that does not fit.
"""
from __future__ import annotations

import math
from itertools import compress
from operator import is_not
from typing import Any

from .cachecheck import need

SAME: Any = None   # diff's answer for two values JSON keeps alike


def same(x: Any, y: Any) -> bool:
    """Whether JSON keeps x and y alike, types and signs included (True, 1 and 1.0 differ)."""
    if x is y:
        return True
    if type(x) is not type(y):
        return False
    if type(x) is float:
        return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
    if type(x) is list:
        return len(x) == len(y) and all(map(same, x, y))
    if type(x) is dict:
        return list(x) == list(y) and all(same(x[k], y[k]) for k in x)
    return bool(x == y)


def diff(old: Any, new: Any) -> Any:
    """The patch that makes `new` of `old`; SAME if there is nothing to change. Unchanged parts
    are found by identity first: a value made by patching `old` is compared only where it changed
    (so `new` must not be `old` changed in place: Engine.after_match's rule)."""
    if old is new:
        return SAME
    if type(old) is dict and type(new) is dict and list(old) == list(new):
        parts = {}
        for key, value in new.items():
            part = diff(old[key], value)
            if part is not SAME:
                parts[key] = part
        return {"d": parts} if parts else SAME
    if type(old) is list and type(new) is list and len(old) <= len(new):
        # (the items not the very objects they were, found by C-level maps: 10,000 counts, two changed)
        maybe = compress(range(len(old)), map(is_not, old, new))
        changed = [[i, new[i]] for i in maybe if not same(old[i], new[i])]
        grown = new[len(old):]
        if not (changed or grown):
            return SAME
        return {"l": changed, "+": grown} if grown else {"l": changed}
    return SAME if same(old, new) else {"v": new}


def patch(old: Any, change: Any) -> Any:
    """`old` with `change` (a diff of it) applied; `old` itself is left as it was."""
    if change is SAME:
        return old
    need(type(change) is dict and (len(change) == 1 or set(change) == {"l", "+"}), "bad patch")
    if "v" in change:
        return change["v"]
    if "d" in change:
        parts = change["d"]
        need(type(old) is dict and type(parts) is dict and set(parts) <= set(old), "a patch of other keys")
        new = dict(old)
        for key, part in parts.items():
            new[key] = patch(old[key], part)
        return new
    items, grown = change.get("l"), change.get("+", [])
    need(type(old) is list and type(items) is list and type(grown) is list, "bad patch")
    new_list = list(old)
    for item in items:
        need(type(item) is list and len(item) == 2 and type(item[0]) is int and 0 <= item[0] < len(old),
             "a patch of other items")
        new_list[item[0]] = item[1]
    return new_list + grown


def size(change: Any) -> int:
    """How many values a patch gives (a whole list or dict as many as it holds): to weigh it."""
    if change is SAME:
        return 0
    if "d" in change:
        return sum(map(size, change["d"].values()))
    if "l" in change:
        return len(change["l"]) + len(change.get("+", ()))
    return len(change["v"]) if type(change["v"]) in (list, dict) else 1
