"""Claim-file edits in place: numbers of ``quote:``, ``claimed:`` and other fields rewritten at
the character offsets PyYAML's safe composer reports (nothing is constructed), so comments,
quoting and layout survive byte for byte; a ruamel.yaml round trip would keep comments too, but
may re-wrap or re-quote other lines.
"""

from __future__ import annotations

from functools import lru_cache

import yaml

from checkers.fix.plan import FixProblem
from checkers.fix.tokens import styled
from checkers.numbers import Token, number_tokens

__all__ = ["claim_node", "claimed_source", "compose", "edit_claim_file", "source_tokens"]


@lru_cache(maxsize=64)
def compose(text: str) -> yaml.Node:
    """The claim file's node tree (PyYAML's safe composer, as :mod:`checkers.safeyaml` uses:
    nothing is constructed), with the character offsets of every value."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(text, Loader=loader)
    except yaml.YAMLError as error:
        raise FixProblem(f"the claim file cannot be edited ({type(error).__name__})") from None
    if node is None:
        raise FixProblem("the claim file is empty")
    return node


def claim_node(text: str, claim_id: str) -> yaml.MappingNode:
    """The mapping node of claim ``claim_id`` in the claim file ``text``."""
    found = _claims_by_id(text).get(claim_id)
    if found is None:
        raise FixProblem(f"claim id {claim_id!r} is not unique in its file")
    return found


@lru_cache(maxsize=64)
def _claims_by_id(text: str) -> dict[str, yaml.MappingNode | None]:
    """Every claim's node by id, indexed once per text (None for an id used twice): a file of
    800 claims is looked up 800 times while it is fixed."""
    root = compose(text)
    if not isinstance(root, yaml.MappingNode):
        raise FixProblem("the claim file is not a mapping")
    claims = [v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "claims"]
    if len(claims) != 1 or not isinstance(claims[0], yaml.SequenceNode):
        raise FixProblem("the claim file has no list of claims")
    index: dict[str, yaml.MappingNode | None] = {}
    for item in claims[0].value:
        if not isinstance(item, yaml.MappingNode):
            continue
        for key, value in item.value:
            if (
                isinstance(key, yaml.ScalarNode)
                and key.value == "id"
                and isinstance(value, yaml.ScalarNode)
            ):
                index[value.value] = None if value.value in index else item
    return index


def field_node(claim: yaml.MappingNode, name: str) -> yaml.Node | None:
    for key, value in claim.value:
        if isinstance(key, yaml.ScalarNode) and key.value == name and isinstance(value, yaml.Node):
            return value
    return None


def _leaves(node: yaml.Node) -> list[yaml.ScalarNode]:
    """Scalar nodes under ``node`` in document order."""
    if isinstance(node, yaml.ScalarNode):
        return [node]
    if isinstance(node, yaml.SequenceNode):
        return [leaf for item in node.value for leaf in _leaves(item)]
    if isinstance(node, yaml.MappingNode):
        return [leaf for _, item in node.value for leaf in _leaves(item)]
    return []


def source_tokens(text: str, node: yaml.Node) -> list[Token]:
    """Numbers printed in the source of ``node``'s scalars, with positions in the file."""
    tokens: list[Token] = []
    for leaf in _leaves(node):
        start, end = leaf.start_mark.index, leaf.end_mark.index
        tokens.extend(
            Token(t.start + start, t.end + start, t.text) for t in number_tokens(text[start:end])
        )
    return tokens


def claimed_source(text: str, claim_id: str) -> list[Token]:
    node = field_node(claim_node(text, claim_id), "claimed")
    return [] if node is None else source_tokens(text, node)


def edit_claim_file(
    text: str,
    changes: dict[str, dict[str, dict[int, str]]],
    values: dict[str, dict[str, str]],
) -> str:
    """``text`` with numbers rewritten: {claim id: {field: {number index: new text}}}.

    For fields in ``values`` (their parsed value), the numbers in the source must be the numbers
    of the value, one for one, or the edit is refused. Only those characters change: comments,
    quoting and layout stay exactly as they were.
    """
    replacements: list[tuple[int, int, str]] = []
    for claim_id, fields in changes.items():
        claim = claim_node(text, claim_id)
        for name, by_index in fields.items():
            if not by_index:
                continue
            node = field_node(claim, name)
            if node is None:
                raise FixProblem(f"the claim has no `{name}:` field to update")
            tokens = source_tokens(text, node)
            expected = values.get(claim_id, {}).get(name)
            if expected is not None and [t.norm for t in tokens] != [
                t.norm for t in number_tokens(expected)
            ]:
                raise FixProblem(f"the `{name}:` text in the claim file is escaped or folded oddly")
            for index, new in by_index.items():
                if index >= len(tokens):
                    raise FixProblem(f"the `{name}:` field does not print number {index + 1}")
                token = tokens[index]
                replacements.append((token.start, token.end, styled(new, token.text)))
    for start, end, new in sorted(set(replacements), reverse=True):
        text = text[:start] + new + text[end:]
    return text
