"""The ``uses:`` graph of one claim file: which claims feed which, in what order they are
computed, and which form cycles.

Every function takes the graph as claim id → that claim's ``uses:`` (variable name → upstream
claim id) and walks it with explicit stacks and queues, never recursion: a chain 50 000 claims
long must not become 50 000 nested Python calls.
"""

from __future__ import annotations

from collections.abc import Container, Mapping

__all__ = ["CYCLE_SEARCH", "cycle_through", "cyclic", "upstream_first"]


def upstream_first(
    uses: Mapping[str, Mapping[str, str]], start: str, done: Container[str]
) -> list[str]:
    """``start`` and the claims it uses, directly or not, that are not ``done``, in post-order
    (every claim after the claims it uses), by an explicit-stack depth-first search."""
    order: list[str] = []
    seen = {start}
    stack = [(start, iter(uses[start].values()))]
    while stack:
        node, upstream_ids = stack[-1]
        following = next(
            (u for u in upstream_ids if u in uses and u not in seen and u not in done),
            None,
        )
        if following is None:
            stack.pop()
            order.append(node)
        else:
            seen.add(following)
            stack.append((following, iter(uses[following].values())))
    return order


def cyclic(uses: Mapping[str, Mapping[str, str]]) -> set[str]:
    """Ids of the claims on a ``uses:`` cycle: strongly connected components of more than one
    claim, or a claim that uses itself (Tarjan's algorithm, with an explicit stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    component: list[str] = []
    on_stack: set[str] = set()
    cyclic: set[str] = set()
    for root in uses:
        if root in index:
            continue
        work = [(root, iter(uses[root].values()))]
        index[root] = low[root] = len(index)
        component.append(root)
        on_stack.add(root)
        while work:
            node, upstream_ids = work[-1]
            for upstream in upstream_ids:
                if upstream not in uses:
                    continue
                if upstream not in index:
                    index[upstream] = low[upstream] = len(index)
                    component.append(upstream)
                    on_stack.add(upstream)
                    work.append((upstream, iter(uses[upstream].values())))
                    break
                if upstream in on_stack:
                    low[node] = min(low[node], index[upstream])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members: list[str] = []
                    while True:
                        member = component.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1 or node in uses[node].values():
                        cyclic.update(members)
    return cyclic


CYCLE_SEARCH = 10_000
"""Claims visited at most to spell out one cycle in a message."""


def cycle_through(
    uses: Mapping[str, Mapping[str, str]], start: str, on_cycle: set[str]
) -> list[str]:
    """The ids of a shortest ``uses:`` cycle through ``start`` ([start, …, start]), by a
    bounded breadth-first search among the claims on cycles; [] when the search gives up."""
    came_from: dict[str, str] = {}
    frontier = [start]
    visited = 0
    while frontier and visited < CYCLE_SEARCH:
        following: list[str] = []
        for node in frontier:
            visited += 1
            for upstream in uses[node].values():
                if upstream == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if upstream in on_cycle and upstream not in came_from:
                    came_from[upstream] = node
                    following.append(upstream)
        frontier = following
    return []
