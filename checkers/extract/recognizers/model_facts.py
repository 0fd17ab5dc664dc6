"""Recogniser ``model_facts``: published facts about a named model stated in prose.

Recognises, in a paragraph, list item or heading, a model the reference table knows
(``checkers/data/models.yaml``: "GPT-3", "LLaMA-2 7B", "BERT-base", "Qwen2.5-72B") followed in
the same clause by numbers bound to a role word, in English or Chinese:

* layers — ``96 layers``, ``a 12-layer``, ``24 个 Decoder 层``, ``12层``, ``num layers: 12``,
  ``层数为 12``
* heads — ``32 heads``, ``96 attention heads``, ``16 个头``, ``num heads: 12``, ``头数为 12``;
  ``8 KV heads`` (key/value heads)
* hidden — ``hidden size of 4096``, ``768 hidden``, ``d_model = 512``, ``hidden_size 为 768``,
  ``12288 的 hidden_size``, ``隐藏维度为 768``
* d_ff — ``FFN dimension of 3072``, ``intermediate size 11008``, ``前馈维度为 2048``
* context — ``a 32K context``, ``4096-token context window``, ``context length of 2048``,
  ``上下文长度为 4096``, ``支持 128K 上下文``
* vocab — ``a vocabulary of 32,000``, ``50K vocab``, ``词表大小为 32000``, ``128K 词表``
* params — ``175B parameters``, ``110M params``, ``1750 亿参数``, ``参数量为 7B``
* tokens — pre-training tokens after a training verb: ``trained on 2T tokens``,
  ``训练了 3.3B token``
* rope_theta — ``rope_theta of 500000``, ``RoPE base 1,000,000``, ``rotary base``, ``旋转位置编码的
  基数为 10000``; a bare "base" (``raised the base to 500,000``, ``base from 10,000 to
  1,000,000``: the last number) only in a section that speaks of RoPE, rotary frequencies or θ
* experts — routed experts: ``256 routed experts``, ``8 experts``, ``256 个路由专家`` (not the
  shared ones, ``1 个共享专家``; not a count a token uses, "activates 9 experts", or one that adds
  the shared experts, "257 experts (256 routed + 1 shared)"; not a placement, "32 experts per GPU")
* experts_per_token — top-k: ``top-2`` (with an expert or routing word after it), ``2 experts
  per token``, ``activates 8 of them per token``, ``routes each token to 2 of its 8 experts``,
  ``选 6 个``, ``激活 8 个专家``

A label/value table row is read as the sentence it stands for (``| BERT-base num heads | 12 |``
as "BERT-base num heads: 12") and quoted by the row. Each model mention with at least one such
number becomes a ``model_config`` claim (the numbers
of one clause together, so ``12 layers, 768 hidden, 110M parameters`` is also checked for
consistency and its size estimated). A number attaches to the nearest model named before it in
its clause; a clause ends at a sentence end, ``;``, and at words that change the subject
("while", "but", "unlike", "而", "但", "相比"). Nothing is drafted where the statement is not a
fact about that model: a hypothetical ("suppose", "if", "假设", "如果"), a model "like" or "-style"
another ("GPT-2-style", "类 BERT", "BERT 类模型"), a number the text puts in a setting ("at 128K
context", "with 32K context", "to 128K", "from 8K", "在 32K 上下文下"), a factor of a product
(``2 × 32 layers``), the reader's or the author's own model ("our", "we", "我们"), or the common
noun "transformer" without a size (only "Transformer base/big" names Vaswani et al.'s models).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from checkers.data import model_table, parse_count, size_in_name
from checkers.extract.document import Block, Document, Table, joined_lines, line_at
from checkers.extract.draft import Draft
from checkers.literals import required_words
from checkers.numbers import NumberError, Printed, parse_printed

__all__ = ["recognize"]

NAME = "model_facts"

_COUNT = r"\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s*(?:[kmbt](?![a-z])|trillion|billion|million|亿|万))?"
_N = rf"(?P<n>{_COUNT})"
_M = rf"(?P<m>{_COUNT})"  # the number of a pattern's second alternative
_ROLES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (field, re.compile(pattern))
    for field, pattern in (
        ("kv_heads", rf"{_N}[\s-]*(?:kv|key[\s/-]*value)[\s-]*(?:heads?|头)"),
        ("layers", rf"{_N}[\s-]*(?:transformer |decoder |encoder |hidden )?(?:layers?|blocks)\b"),
        ("layers", rf"{_N}\s*个?\s*(?:decoder\s*|encoder\s*|transformer\s*)?层(?!归一化)"),
        ("heads", rf"{_N}[\s-]*(?:attention |query )?heads?\b"),
        ("heads", rf"{_N}\s*(?:个\s*(?:注意力)?|注意力)头(?!维|部)"),
        (
            "layers",
            r"(?:num[_\s-]*(?:hidden[_\s-]*)?layers|(?<![\w-])layers|层数)\s*(?:=|:|：|is|was|为|是)\s*"
            rf"{_N}(?!\s*(?:[×x*/+]|%))",
        ),
        (
            "heads",
            r"(?:num[_\s-]*(?:attention[_\s-]*)?heads|attention heads|(?<![\w-])heads|头数"
            rf"|注意力头数)\s*(?:=|:|：|is|was|为|是)\s*{_N}(?!\s*(?:[×x*/+]|%))",
        ),
        (
            "hidden",
            r"(?:hidden(?:[\s_-]*(?:size|dim(?:ension)?|state size))|d[_\s-]?model|"
            r"model dim(?:ension)?|embedding (?:dim(?:ension)?|size)|隐藏(?:层)?维度|模型维度)"
            rf"\s*(?:of|=|:|：|is|was|为|是)?\s*{_N}",
        ),
        ("hidden", rf"{_N}\s*(?:的\s*)?(?:hidden(?![\s_-]*layers?)(?:[\s_-]*size)?|d[_-]model)"),
        (
            "d_ff",
            r"(?:ffn|feed[\s-]*forward|intermediate|mlp|前馈(?:层|网络)?)(?:[\s_-]*(?:size|"
            r"dim(?:ension)?|width|inner dim(?:ension)?|维度|大小))"
            rf"\s*(?:of|=|:|：|is|was|为|是)?\s*{_N}",
        ),
        (
            "context",
            rf"{_N}[\s-]*(?:tokens?[\s-]*)?(?:of\s+)?context(?:[\s-]*(?:window|length))?"
            r"|context(?:[\s-]*(?:window|length|size))?\s*(?:of|=|:|：|is|was)\s*"
            rf"(?:up to\s*)?{_M}",
        ),
        (
            "context",
            rf"上下文(?:长度|窗口)?\s*(?:为|是|达到|可达|支持)\s*{_N}|{_M}\s*(?:tokens?\s*)?的?\s*上下文",
        ),
        (
            "vocab",
            rf"vocab(?:ulary)?(?:[\s_-]*size)?\s*(?:of|=|:|：|is|was)\s*{_N}"
            rf"|{_M}[\s-]*(?:tokens?[\s-]*|entry[\s-]*|word[\s-]*)?vocab(?:ulary)?\b",
        ),
        ("vocab", rf"词表(?:大小)?\s*(?:为|是|=|：)?\s*{_N}|{_M}\s*的?\s*词表"),
        (
            "params",
            rf"{_N}[\s-]*(?:total\s+)?(?:parameters?|params)\b"
            rf"|{_M}\s*(?:[（(][^）)]{{0,12}}[）)])?\s*(?:的\s*)?参数",
        ),
        ("params", rf"参数(?:量|规模)?\s*(?:为|是|达到|约)\s*{_N}"),
        (
            "active_params",
            rf"{_N}[\s-]*(?:active|activated)\b(?:[\s-]*(?:parameters?|params))?"
            r"|(?:activat(?:es|ing)|uses)\s+(?:only\s+|just\s+)?"
            rf"{_M}(?=\s*(?:parameters?\b|params\b|per\s+token|out\s+of|of\s+(?:its|the|them)))",
        ),
        ("active_params", rf"激活(?:参数(?:量)?)?\s*(?:为|是|约|仅)?\s*{_N}"),
        (
            "rope_theta",
            r"(?:rope[\s_-]*(?:theta|θ|base)(?:[\s_-]*frequency)?|rotary[\s-]*(?:embedding[\s-]*)?base"
            r"|(?:rope|rotary)[\s-]*(?:的\s*)?(?:base|基数|底数)|旋转(?:位置)?(?:编码)?(?:的)?\s*(?:基数|底数))"
            rf"\s*(?:of|=|:|：|is|was|为|是|设为|取)?\s*(?:from\s+[\d,.]+\s+)?(?:to\s+)?{_N}",
        ),
        (
            "experts_per_token",
            rf"top[\s-]*{_N}\b(?=[^.;]*?(?:expert|rout|专家|路由))"
            r"|(?:activat\w*|select\w*|choos\w*|picks?|routes?\s+(?:each|every)\s+token\s+to|sends?"
            r"\s+(?:each|every)\s+token\s+to)\s+(?:only\s+)?(?:the\s+top\s+)?"
            rf"{_M}\s*(?:of\s+(?:the\s+|its\s+)?[\d,]+\s*)?(?:routed\s+)?experts?\b",
        ),
        (
            "experts_per_token",
            rf"{_N}\s*(?:active\s+|routed\s+)?(?:experts?|of\s+them|of\s+these)\s*"
            r"(?:per|for each|each)\s+token"
            rf"|(?:选|选择|选出|激活|路由到|使用)\s*(?:其中\s*)?(?:的\s*)?(?:前\s*)?(?:top[\s-]*)?{_M}\s*个",
        ),
        (
            "tokens",
            r"(?:trained|训练)(?:\s*(?:on|for|with|了))?\s*(?:about|approximately|roughly|over|"
            rf"around|nearly|约|大约|超过|~|≈)?\s*{_N}\s*(?:个\s*)?tokens?\b",
        ),
        (
            "experts",
            rf"{_N}\s*(?:routed\s+)?experts?\b(?![\s-]*(?:per|each|for each|on each)\s+"
            r"(?:token|node|gpu|device|rank|card|machine))",
        ),
        ("experts", rf"{_N}\s*个?\s*(?:路由)?专家"),
    )
)
# "Llama 3 raised the base to 500,000": a bare "base" is the RoPE base only in a section that
# speaks of rotary frequencies.
_BARE_BASE = re.compile(
    rf"(?<![\w-])base\s*(?:frequency\s*)?(?:of|=|:|：|is|was|为|是)?\s*(?:from\s+[\d,.]+\s+)?"
    rf"(?:to\s+)?{_N}"
)
_ROLES_AND_WORDS = tuple((field, pattern, required_words(pattern)) for field, pattern in _ROLES)
"""Each role's pattern with the words one of which its every match holds."""
_ROLES_WITH_BARE_BASE = (*_ROLES_AND_WORDS, ("rope_theta", _BARE_BASE, required_words(_BARE_BASE)))
_ROPE_WORDS = re.compile(r"rope|rotary|旋转位置|θ|\\theta|theta")
_FAMILY_NAMES = (
    "gpt", "bert", "llama", "mistral", "mixtral", "t5", "qwen", "deepseek", "gemma", "phi",
    "transformer", "openai", "chinchilla", "vit",
)  # fmt: skip
"""The words a statement about a known model names (in NFKC case-folded text): every match of
:data:`_FAMILY_WORDS` holds one, so a lesson line without any is passed over unread."""
_FAMILY_WORDS = re.compile("|".join(_FAMILY_NAMES[:-1]) + r"|(?<![a-z])vit(?![a-z])")
_SIZE_AFTER = re.compile(
    r"(?:[\s_-]*(?:\(\s*)?(?:\d+(?:\.\d+)?\s*(?:b|m)(?![a-z])|(?:small|medium|large|xl|base|big|huge)"
    r"|[blh]/\d+)"
    r"(?:\s*\))?){0,2}"
)
# A mention that names a look-alike, not the model: "GPT-2-style", "BERT-like", "BERT 类模型".
_NOT_THE_MODEL_AFTER = re.compile(
    r"^[\s-]*(?:style|like|ish|inspired|sized|class|clone|variant|based|type|family|series|"
    r"optimal|scaling|law|rule|"
    r"architecture|tokenizer|风格|式|类|架构|结构|系列|分词器)"
)
_NOT_THE_MODEL_BEFORE = re.compile(r"(?:like|similar to|à la|类似于?|仿照|类)\s*(?:an?\s+)?$")
_HYPOTHETICAL = re.compile(
    r"\b(?:suppose|imagine|assume|assuming|if|say we|let's|lets|hypothetical|e\.g\.)\b"
    r"|假设|如果|假如|设想"
)
_CLAUSE_END = re.compile(
    r"(?<=[.!?])\s+|[。！？；;]\s*|\b(?:while|whereas|but|however|unlike|compared (?:to|with)|"
    r"versus|vs\.?)\b|而|但|相比|不同于"
)
_OTHER_SUBJECT = re.compile(r"\b(?:our|we|us|my|your|you|ours)\b|我们|咱们|本文的|你的")
_SETTING_BEFORE = re.compile(
    r"(?:\bat|\bfor|\busing|(?<!up )\bto|\bfrom|\bon|\binto|\bper|\bby|在|到|从|第)"
    r"\s*(?:an?\s+|the\s+)?$|(?:[×*/+−]|\d\s*x)\s*$"
)
# A context the clause states the model has, not one it is run at.
_CONTEXT_VERB = re.compile(
    r"\b(?:has|have|had|supports?|supported|offers?|features?|is|was|uses?|used|trained)\b"
    r"|'s|’s|[:：(（]|支持|具有|拥有|有|为|是|达到"
)
_NUMBER_BEFORE = re.compile(r"\d\s*$")
_DIGIT = re.compile(r"\d")
_RUN_WITH = re.compile(r"\bwith\s*(?:an?\s+|the\s+)?$")  # "served with 32K context" is a setting


_IN_AN_ADDRESS = frozenset("/.:#=@")
_JOINED_SUFFIX = re.compile(r"(?:[-_.][a-z0-9]+)+")


@dataclass(frozen=True)
class _Mention:
    """A model named in a clause."""

    name: str
    """The name as printed (``LLaMA-2 7B``)."""
    start: int
    """Offset in the block text."""
    end: int
    """Offset just after the name."""


def _mentions(text: str, folded: str, start: int, end: int) -> list[_Mention]:
    """The known models named in ``text[start:end]``, in order."""
    found: list[_Mention] = []
    table = model_table()
    for family in table.families_in(folded, start, end):
        for match in family.regex.finditer(folded, start, end):
            if match.start() > 0 and folded[match.start() - 1] in _IN_AN_ADDRESS:
                continue  # "github.com/openai/whisper/…": a path, not a mention
            size = _SIZE_AFTER.match(folded, match.end(), end)
            stop = size.end() if size else match.end()
            name = text[match.start() : stop].strip(" (-_")
            if _NOT_THE_MODEL_AFTER.match(folded[stop:end]):
                continue
            if _NOT_THE_MODEL_BEFORE.search(folded, max(start, match.start() - 16), match.start()):
                continue
            # The rest of a joined name decides which model it is ("Whisper Large-v3-turbo" is
            # not Whisper large): it is looked up whole.
            joined = _JOINED_SUFFIX.match(folded, stop, end)
            whole = text[match.start() : joined.end()] if joined and joined.end() > stop else name
            known = table.find(whole)
            if known.spec is None and not known.candidates:
                continue
            found.append(_Mention(name, match.start(), stop))
    found.sort(key=lambda m: m.start)
    # One mention per place: "Llama 3.1" is not also "Llama 3".
    kept: list[_Mention] = []
    for mention in found:
        if kept and mention.start < kept[-1].end:
            if mention.end - mention.start > kept[-1].end - kept[-1].start:
                kept[-1] = mention
            continue
        kept.append(mention)
    return kept


_EXPERTS_USED = re.compile(r"activ|select|choos|pick|rout|token|激活|选|使用|路由到")
_OF_ALL = re.compile(r"\d\s+of\s+(?:its\s+|the\s+)?$")  # "2 of its 8 experts": 8 is all of them
_SHARED_AFTER = re.compile(r"[^.;。；]*?(?:shared|共享)")
_OPERAND_BEFORE = re.compile(r"[/×*+=]\s*$")
_STATED_AFTER_A_VERB = ("tokens", "rope_theta", "experts_per_token")
"""Fields whose pattern holds its own verb, so "to" before the number states it ("raised the
base to 500,000", "routes each token to 2 experts")."""


def _roles(
    folded: str, start: int, end: int, rope_section: bool
) -> list[tuple[int, int, str, str]]:
    """(number start, match end, field, number text) of every role-bound number; a bare "base"
    is the RoPE base in a ``rope_section``."""
    found: dict[int, tuple[int, int, str, str]] = {}
    roles = _ROLES_WITH_BARE_BASE if rope_section else _ROLES_AND_WORDS
    for field, pattern, words in roles:
        if words is not None and not any(folded.find(word, start, end) >= 0 for word in words):
            continue  # no role word: the pattern has no match here
        for match in pattern.finditer(folded, start, end):
            group = "n" if match.group("n") is not None else "m"
            n_start = match.start(group)
            if n_start in found:
                continue
            before = folded[max(start, n_start - 12) : n_start]
            # "trained on 2T tokens": the training verb, not a setting, comes before the count;
            # "raised the base to 500,000" states the base.
            if field not in _STATED_AFTER_A_VERB and _SETTING_BEFORE.search(before):
                continue
            if _NUMBER_BEFORE.search(before):
                continue
            # "hidden / num_heads = 128": a role word that is an operand of a chain names no value.
            if n_start > match.start() and _OPERAND_BEFORE.search(
                folded, max(start, match.start() - 3), match.start()
            ):
                continue
            # "激活 6 个路由专家", "activates 2 of the 8 experts": a count of things, not an
            # active size (those are millions or billions: 37B, 2.7B, 130亿), is left to the
            # expert roles below.
            if field == "active_params" and (
                (count := parse_count(match.group(group).strip())) is None or count.value < 1e6
            ):
                continue
            if field == "experts" and (
                (
                    _EXPERTS_USED.search(folded, max(start, n_start - 24), n_start)
                    and not _OF_ALL.search(folded, max(start, n_start - 12), n_start)
                )
                or _SHARED_AFTER.match(folded, match.end(), min(end, match.end() + 40))
            ):
                continue  # the experts a token uses, or a count that adds the shared ones
            found[n_start] = (n_start, match.end(), field, match.group(group).strip())
    return sorted(found.values())


# What makes a count after a model's name something other than the model's own size: a part
# of it ("trainable", "LoRA adds 4M", "non-embedding", "per layer"), a change ("fewer"), or a
# comparison ("than").
_NOT_ITS_SIZE = re.compile(
    r"trainab|train(?:s|ing)\b|adapter|lora|add(?:s|ed|ing)?\b|extra|additional|new\b|"
    r"frozen|embedding|layer|block|head|expert|each|per\b|than|more|fewer|less|"
    r"小于|大于|约为其|每|新增|额外|可训练"
)
_SIZE_VERB = re.compile(
    r"^[\s,:：(（]*(?:(?:has|had|is|was|with|at|has about|totall?ing|of|activates|uses"
    r"|有|共有|为|是|约|激活)\s*)?(?:only\s+|just\s+|仅\s*)?(?:about|around|roughly|approximately|~|≈|约)?\s*$"
)
# After the size: a part of the model it counts ("per layer", "in the embeddings", "trainable").
_PART_AFTER = re.compile(
    r"\s*(?:per\s+(?!token)|each\b|in\s+(?:the|its|each)|of\s+which|for\s+(?:the|its)\b|"
    r"for\s+each\s+(?!token)|"
    r"trainab|embedding|non-embedding|每层|的嵌入)"
)


def _states_its_size(
    folded: str, after_name: int, fields: dict[str, str], numbers: list[tuple[int, int, str, str]]
) -> bool:
    """A clause whose only numbers are sizes states the model's size when the first of them
    follows the name directly ("ViT-Large (307M params)", "BERT-large has 340M parameters",
    "Mixtral 8x7B has 47B total parameters", "671B parameters total, 37B active") with nothing
    between that makes it a part, a change or a comparison of it."""
    if not fields:
        return False
    first = min(
        n_start for n_start, _, field, _ in numbers if field in fields and n_start >= after_name
    )
    between = folded[after_name:first]
    if len(between) > 24 or _NOT_ITS_SIZE.search(between) or not _SIZE_VERB.match(between):
        return False
    end = max(
        m_end for n_start, m_end, field, _ in numbers if field in fields and n_start >= after_name
    )
    return not _PART_AFTER.match(folded, end)


def _printed(text: str) -> Printed | None:
    try:
        return parse_printed(text)
    except NumberError:
        return None


def _clauses(folded: str) -> Iterator[tuple[int, int]]:
    at = 0
    for match in _CLAUSE_END.finditer(folded):
        yield at, match.start()
        at = match.end()
    yield at, len(folded)


def _clause_drafts(
    text: str,
    folded: str,
    start: int,
    end: int,
    offsets: list[tuple[int, int]],
    rope_section: Callable[[], bool],
) -> Iterator[Draft]:
    if not _FAMILY_WORDS.search(folded, start, end) or not _DIGIT.search(folded, start, end):
        return
    if _HYPOTHETICAL.search(folded, start, end):
        return
    mentions = _mentions(text, folded, start, end)
    if not mentions:
        return
    numbers = _roles(folded, start, end, rope_section())
    for index, mention in enumerate(mentions):
        stop = mentions[index + 1].start if index + 1 < len(mentions) else end
        fields: dict[str, str] = {}
        last = mention.end
        for n_start, m_end, field, number in numbers:
            if not mention.end <= n_start < stop or field in fields:
                continue
            between = folded[mention.end : n_start]
            if _OTHER_SUBJECT.search(between):
                break
            if field == "context" and (
                not _CONTEXT_VERB.search(between + folded[n_start:m_end])
                or _RUN_WITH.search(folded, max(start, n_start - 8), n_start)
            ):
                continue
            written = text[n_start : n_start + len(number)]
            printed = _printed(written)
            counted = field in ("params", "tokens", "active_params")
            if printed is None or (counted and parse_count(written) is None):
                continue
            if not counted and printed.unit is not None and printed.unit.symbol != "K":
                continue  # a column is a plain count, or in K (a "32K" context)
            fields[field] = written
            last = max(last, m_end)
        if size_in_name(mention.name) is not None:
            fields.pop("params", None)  # the name states the size (GPT-3 175B)
        if set(fields) <= {"params", "active_params"} and not _states_its_size(
            folded, mention.end, fields, numbers
        ):
            continue
        size = _printed(fields["params"]) if "params" in fields else None
        printed_columns = {
            f: p
            for f, v in fields.items()
            if f not in ("params", "active_params") and (p := _printed(v)) is not None
        }
        spec = model_table().resolve(mention.name, printed_columns, size).spec
        if spec is None:
            continue
        if not spec.is_moe:
            fields.pop("active_params", None)
        if not fields:
            continue
        yield Draft(
            kind="model_config",
            quote=text[mention.start : last].strip(),
            line=line_at(offsets, mention.start)[0],
            fields={"name": mention.name, **fields},
            confidence=0.75,
            recognizer=NAME,
            slug=f"{mention.name}-facts",
        )


def _row_drafts(
    document: Document, table: Table, rope_section: Callable[[], bool]
) -> Iterator[Draft]:
    """``| GPT-2 hidden size | 768 | … |``: a label/value row read as "GPT-2 hidden size: 768",
    quoted by the row (a table of models by column is model_tables' business); whether the
    table's section is about RoPE is asked of ``rope_section``."""
    for text, line in table.labelled_values():
        folded = unicodedata.normalize("NFKC", text).casefold()
        if len(folded) != len(text) or not _FAMILY_WORDS.search(folded):
            continue
        quote = document.source_line(line)
        for draft in _clause_drafts(text, folded, 0, len(folded), [(0, line)], rope_section):
            yield dataclasses.replace(draft, quote=quote or draft.quote)


def _naming_a_family(texts: list[str]) -> dict[int, str]:
    """Index → NFKC case-folded text of each of ``texts`` (blocks' texts) that holds one of
    :data:`_FAMILY_NAMES` after folding.

    The texts are folded as one (NUL, which the parser never leaves in a text, stands between
    them and folds with nothing, so each folds as it would alone) and each word is looked for
    once in the whole: the few texts that name a model are found without folding and searching
    every paragraph of the lesson one by one."""
    joined = "\0".join(texts)
    if joined.count("\0") != len(texts) - 1:  # a text holding NUL: fold them one by one
        pieces = [unicodedata.normalize("NFKC", text).casefold() for text in texts]
        return {i: p for i, p in enumerate(pieces) if any(w in p for w in _FAMILY_NAMES)}
    if not unicodedata.is_normalized("NFKC", joined):
        joined = unicodedata.normalize("NFKC", joined)
    folded = joined.casefold()
    pieces = folded.split("\0")
    ends = list(itertools.accumulate(map((1).__add__, map(len, pieces))))  # after each NUL
    found: dict[int, str] = {}
    for word in _FAMILY_NAMES:
        at = folded.find(word)
        while at >= 0:
            index = bisect.bisect_right(ends, at)
            found[index] = pieces[index]
            at = folded.find(word, ends[index])  # the next text
    return found


_PROSE = ("paragraph", "heading")


def recognize(document: Document) -> Iterator[Draft]:
    """Draft a ``model_config`` claim for each known model whose published numbers a clause
    states."""
    prose = [
        (index, block)
        for index, block in enumerate(document.blocks)
        if block.kind in _PROSE and block.lines and block.table is None
    ]
    named_prose = _naming_a_family(
        [
            block.lines[0].text
            if len(block.lines) == 1
            else "\n".join(line.text for line in block.lines)
            for _, block in prose
        ]
    )
    named = {prose[i][0]: folded for i, folded in named_prose.items()}
    sections: dict[int, list[Block]] = {}
    for block in document.blocks:
        sections.setdefault(block.section, []).append(block)
    rope_sections: dict[int, bool] = {}  # read for a section when a clause of it is read

    def rope_section(section: int) -> bool:
        if section not in rope_sections:
            rope_sections[section] = (
                _ROPE_WORDS.search(
                    "\n".join(
                        line.text for block in sections[section] for line in block.lines
                    ).casefold()
                )
                is not None
            )
        return rope_sections[section]

    for index, block in enumerate(document.blocks):
        if block.table is not None:
            yield from _row_drafts(
                document, block.table, functools.partial(rope_section, block.section)
            )
            continue
        folded = named.get(index)
        if folded is None:
            continue
        text, offsets = joined_lines(block.lines)
        if len(folded) != len(text) or not _DIGIT.search(text):
            continue
        if not _FAMILY_WORDS.search(folded):
            continue
        rope = functools.partial(rope_section, block.section)
        for start, end in _clauses(folded):
            yield from _clause_drafts(text, folded, start, end, offsets, rope)
