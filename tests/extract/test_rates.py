"""Recogniser ``rates``: a figure stated per unit, then one derived from it on a later line of
the section (snippets written for these tests; the numbers are worked by hand in each case)."""

from __future__ import annotations

import pytest

from checkers.extract.document import parse_document
from checkers.extract.recognizers import rates
from tests.extract.conftest import ScanText


def _drafted(text: str) -> list[tuple[int, str, str]]:
    return [
        (d.line, str(d.fields["expression"]), str(d.fields["claimed"]))
        for d in rates.recognize(parse_document(text))
    ]


def _verdicts(scan_text: ScanText, text: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.verdict, f.message) for f in scan_text(text) if f.id.startswith("rates-")]


# 131,072 B × 16,384 tokens = 2³¹ B = 2 GiB (2.15 GB).
KV = (
    "## Cache\n\nOur toy model keeps 131,072 bytes of cache per token (128 KiB).\n\n"
    "A long prompt of 16,384 tokens therefore holds {} of cache.\n"
)
# 7,077,888 × 12 = 84,934,656 ≈ 84.9M.
BLOCKS = (
    "## Blocks\n\nThe encoder has 12 layers of width 768.\n\n"
    "Each block holds 7,077,888 weights, about 7.1M.\n\n"
    "Across the whole stack that is about {}M in the blocks alone.\n"
)
# 1.5 GiB × 6 = 9 GiB.
SEQUENCES = "## 显存\n\n一条 2,048 token 的序列占 1.5 GiB。\n\n同时跑 6 条这样的序列，共 {} GiB。\n"
# 1.5 bits per token over 3 bytes per token = 0.5 bits per byte.
BITS = (
    "## Compression\n\nOn this corpus each token is about 3 bytes per token of text.\n\n"
    "The loss is 1.5 bits / token.\n\nPer byte that is about {} bits.\n"
)
# 98,304 GPU-hours / 512 GPUs / 24 = 8 days.
GPU_DAYS = "## Budget\n\nThe run needs 98,304 GPU-hours.\n\nOn 512 GPUs it takes about {} days.\n"
# 3 GB per sample × a batch of 4 = 12 GB.
BATCH = "## Memory\n\nActivations take 3 GB per sample. A batch size of 4 needs {} GB.\n"
# 36,000 s / 3600 = 10 h.
SECONDS = "## 时间\n\n训练总耗时约 36,000 秒，\n\n折合约 {} 小时。\n"


@pytest.mark.parametrize(
    ("template", "right", "wrong"),
    [
        (KV, "2 GiB", "3 GiB"),
        (BLOCKS, "84.9", "94.9"),
        (SEQUENCES, "9", "12"),
        (BITS, "0.5", "1.5"),
        (GPU_DAYS, "8", "4"),
        (SECONDS, "10", "100"),
        (BATCH, "12", "16"),
    ],
)
def test_a_derived_figure_passes_and_a_changed_one_fails(
    scan_text: ScanText, template: str, right: str, wrong: str
) -> None:
    good = _verdicts(scan_text, template.format(right))
    assert good and all(verdict == "pass" for _, verdict, _ in good), good
    bad = _verdicts(scan_text, template.format(wrong))
    assert [verdict for _, verdict, _ in bad] == ["fail"], bad
    line, _, message = bad[0]
    assert template.format(wrong).splitlines()[line - 1].find(wrong) >= 0
    assert "(line " in message  # the note says where each operand was read


def test_the_message_names_the_operands_and_the_readings_tried(scan_text: ScanText) -> None:
    found = _verdicts(scan_text, KV.format("3 GiB"))
    message = found[0][2]
    assert "131,072 bytes" in message and "(line 3)" in message  # the per-token figure
    assert "16,384 tokens (line 5)" in message  # the count, on the total's own line
    assert "3.0 GiB" not in message and "2" in message  # recomputed: 2 GiB


def test_the_layers_come_from_the_section_and_other_layer_counts_are_readings() -> None:
    drafted = _drafted(BLOCKS.format("94.9"))
    assert drafted == [(7, "7,077,888 × 12", "94.9M")]
    two_models = BLOCKS.replace("The encoder has 12 layers", "A 6-layer and a 12 layers")
    draft = next(iter(rates.recognize(parse_document(two_models.format("42.5")))))
    # 7,077,888 × 6 = 42.5M: the other layer count stated is a reading that holds
    assert draft.fields["expression"] == "7,077,888 × 6"


def test_a_total_that_drops_per_layer_is_read_both_ways(scan_text: ScanText) -> None:
    # 2,048 B per token per layer; 40 layers; 8K tokens: 2048 × 8192 × 40 = 640 MiB, or per
    # layer 16 MiB; 600 MB is neither (671 MB / 16.8 MB).
    text = (
        "## KV\n\nThe model has 40 layers.\n\n```\nper token per layer = 2,048 bytes\n"
        "for 8K tokens = {}\n```\n"
    )
    assert [v for _, v, _ in _verdicts(scan_text, text.format("640 MiB"))] == ["pass"]
    assert [v for _, v, _ in _verdicts(scan_text, text.format("16 MiB"))] == ["pass"]
    failed = _verdicts(scan_text, text.format("600 MiB"))
    assert [v for _, v, _ in failed] == ["fail"]
    assert "still per layer" in failed[0][2]


@pytest.mark.parametrize(
    "text",
    [
        # two unrelated figures in one section: the count and the size belong to other things
        "## Data\n\nThe embedding stores 4,096 bytes per token.\n\n"
        "The corpus has 2M tokens and the checkpoint is 14 GB.\n",
        # the figure restated for a different model
        "## KV\n\nLlama 2 7B keeps 524,288 bytes per token.\n\n"
        "Llama 2 70B at 4,096 tokens needs 1.25 GiB.\n",
        # a count stated per something else ("each")
        "## KV\n\nOne token costs 65,536 bytes.\n\n"
        "Four requests of 1,024 tokens each come to 256 MiB.\n",
        # a per-layer figure, then a model total that says nothing about the layers
        "## Size\n\nThe model has 12 layers.\n\nEach layer holds 7,077,888 weights.\n\n"
        "With embeddings the model has about 124M.\n",
        # a total worked out on its own line is left to the chains recogniser
        "## KV\n\nPer token: 4,096 bytes.\n\nFor 1,024 tokens: 4,096 × 1,024 bytes = 4 MiB.\n",
        # far apart: more than a screen of text between them
        "## KV\n\nEach token costs 4,096 bytes.\n\n"
        + "Words.\n\n" * 8
        + "At 1,024 tokens: 9 MiB.\n",
        # another section
        "## A\n\nEach token costs 4,096 bytes.\n\n## B\n\nAt 1,024 tokens it is 9 MiB.\n",
        # a count of one defines a rate, it does not multiply one
        "## Bits\n\nThe loss is 3.2 bits / token.\n\n"
        "If 1 token is 1.4 characters, each is 2.29 bits.\n",
        # "that is" a total of something else, in a new sentence; "or" an alternative
        "## Cost\n\nTraining each model takes 10 seconds. That is 43 hours for the grid.\n",
        "## Resume\n\nYou lose 30 minutes or 30 hours of work.\n",
        # a figure per GPU is not the batch's total
        "## Memory\n\nActivations take 3 GB per sample. A batch size of 4 needs 6 GB per GPU.\n",
        # another model named only by its size
        "## KV\n\nThe 7B variant stores 524,288 bytes per token.\n\n"
        "The 13B variant at 4,096 tokens needs 3.2 GiB.\n",
        # another model between them in one paragraph
        "## KV\n\nThe 7B model keeps 524,288 bytes per token, while the 70B model at 4,096 "
        "tokens needs 1.25 GiB.\n",
        "## KV\n\nLlama 2 7B keeps 524,288 bytes per token, while Llama 2 70B at 4,096 "
        "tokens needs 1.25 GiB.\n",
        # a time per something else than the run
        "## Budget\n\nThe run needs 98,304 GPU-hours.\n\nOn 512 GPUs it takes 8 hours per epoch.\n",
        # a count of something else entirely: a training set against a checkpoint
        "## Model\n\nThe cache holds 4,096 bytes per token.\n\n"
        "Trained on 2T tokens, its checkpoint is 14 GB.\n",
        # the size of a card, not of the cache
        "## KV\n\nEach token costs 327,680 bytes.\n\nAt 128K tokens it fills a 40 GB A100.\n",
    ],
)
def test_look_alikes_draft_nothing(text: str) -> None:
    assert _drafted(text) == []


@pytest.mark.parametrize(
    ("total", "verdict"), [("85.2", "pass"), ("84.9", "pass"), ("90.0", "fail")]
)
def test_a_rounded_per_unit_figure_is_carried(
    scan_text: ScanText, total: str, verdict: str
) -> None:
    # "about 7.1M" stands for 7.05M–7.15M: × 12 layers is 84.6M–85.8M, so both the total from
    # the rounded figure (85.2M) and from the exact one (84.9M) hold; 90.0M holds under neither.
    text = (
        "## Blocks\n\nThe encoder has 12 layers.\n\nEach block holds about 7.1M weights.\n\n"
        f"Over all layers that is {total}M.\n"
    )
    assert [v for _, v, _ in _verdicts(scan_text, text)] == [verdict]


@pytest.mark.parametrize(("hours", "verdict"), [("201.6", "pass"), ("211.6", "fail")])
def test_a_rounded_time_in_latex_is_carried_as_the_literal_its_term_holds(
    scan_text: ScanText, hours: str, verdict: str
) -> None:
    # 725,760 s is 201.6 h; printed 7.26 × 10^5 s it reads 201.67 h, and from anything
    # 7.26e5 rounds from (7.255e5 … 7.265e5 s) 201.53 … 201.81 h: the literal carried is
    # 7.26e5, as the expression writes it, not the mantissa 7.26.
    text = f"## 时间\n\n共 $7.26 \\times 10^5$ 秒，\n\n折合 {hours} 小时。\n"
    assert [v for _, v, _ in _verdicts(scan_text, text)] == [verdict]


# Four phrasings of a figure carried to the next clause (numbers worked by hand):
# 3 × 2,097,152 = 6,291,456 per layer × 24 = 150,994,944; 2 GiB per conversation × 6 = 12 GiB;
# 14 GFLOPs per token (2 × 7B) × 3B tokens = 4.2e19; 7,200 s = 2 hours.
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Per layer: 6,291,456. All 24 layers: 150,994,944.\n", "pass"),
        ("Per layer: 6,291,456. All 24 layers: 125,829,120.\n", "fail"),
        ("每层：6,291,456。全部 24 层：150,994,944。\n", "pass"),
        ("每层：6,291,456。全部 24 层：125,829,120。\n", "fail"),
        ("每条对话序列 2 GiB；6 条共 12 GiB。\n", "pass"),
        ("每条对话序列 2 GiB；6 条共 10 GiB。\n", "fail"),
        (
            "Inference costs 14 billion FLOPs per token (2 × 7B). "
            "Serving 3B tokens costs 4.2e19 FLOPs.\n",
            "pass",
        ),
        (
            "Inference costs 14 billion FLOPs per token (2 × 7B). "
            "Serving 3B tokens costs 4.2e20 FLOPs.\n",
            "fail",
        ),
        ("The job needs 7,200 s, which is about 2 hours.\n", "pass"),
        ("The job needs 7,200 s, which is about 3 hours.\n", "fail"),
    ],
)
def test_a_figure_carried_into_the_next_clause(
    scan_text: ScanText, text: str, verdict: str
) -> None:
    (finding,) = [f for f in scan_text("## S\n\n" + text) if f.id.startswith("rates-")]
    assert finding.verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        # a plain number after a label that names no unit counts nothing the next one is of
        "Layer 3: 6,291,456. All 24 layers: 125,829,120.\n",
        # 条 alone without its total (“8 条规则”) is no count of sequences
        "每条序列 2 GiB。我们定了 6 条规则，显存上限 10 GiB。\n",
        # another model's figure in between (13B named) breaks the link
        "The 7B model costs 14 billion FLOPs per token. "
        "The 13B model over 3B tokens costs 4.2e20 FLOPs.\n",
        # a new sentence is no restatement
        "The job needs 7,200 s. Which is about 3 hours of queueing.\n",
    ],
)
def test_no_carry_without_the_clause_that_states_it(scan_text: ScanText, text: str) -> None:
    assert _verdicts(scan_text, "## S\n\n" + text) == []


# A total split evenly over GPUs: 96 GB of model state over 4 GPUs is 24 GB each.
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Model state: 96 GB. Sharded evenly across 4 GPUs, each GPU stores 24 GB.\n", "pass"),
        ("Model state: 96 GB. Sharded evenly across 4 GPUs, each GPU stores 32 GB.\n", "fail"),
        ("训练状态一共 96 GB，切分到 4 张卡上，每张卡 24 GB。\n", "pass"),
        ("训练状态一共 96 GB，切分到 4 张卡上，每张卡 12 GB。\n", "fail"),
    ],
)
def test_a_total_split_over_gpus(scan_text: ScanText, text: str, verdict: str) -> None:
    (finding,) = [f for f in scan_text("## S\n\n" + text) if f.id.startswith("rates-")]
    assert finding.verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        # the card's own memory, not a share of the total
        "Model state: 96 GB. Sharded across 4 GPUs, each GPU has 80 GB of memory.\n",
        # ZeRO-1 shards only the optimizer states: a GPU's share is not total / 4
        "Model state: 96 GB. With ZeRO-1 sharded across 4 GPUs, each GPU stores 60 GB.\n",
        # no word of splitting: "each of the 4 GPUs" may hold a full copy (data parallel)
        "Model state: 96 GB. On 4 GPUs, each GPU stores 96 GB.\n",
    ],
)
def test_no_split_without_even_sharding(scan_text: ScanText, text: str) -> None:
    assert _verdicts(scan_text, "## S\n\n" + text) == []


# A figure stated as the one before it doubled or halved: 3.1M × 2 = 6.2M; 12 GiB / 2 = 6 GiB.
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("适配器共约 3.1M 个参数。\n\n把秩加大一倍，参数量翻倍到约 6.2M。\n", "pass"),
        ("适配器共约 3.1M 个参数。\n\n把秩加大一倍，参数量翻倍到约 9.3M。\n", "fail"),
        ("The cache takes 12 GiB.\n\nWith int8 values it halves to 6 GiB.\n", "pass"),
        ("The cache takes 12 GiB.\n\nWith int8 values it halves to 3 GiB.\n", "fail"),
    ],
)
def test_a_figure_doubled_or_halved(scan_text: ScanText, text: str, verdict: str) -> None:
    (finding,) = [f for f in scan_text("## S\n\n" + text) if f.id.startswith("rates-")]
    assert finding.verdict == verdict


def test_a_doubling_skips_a_model_size_but_not_another_figure(scan_text: ScanText) -> None:
    # the nearest count is the 13B model's name: the doubling is of the adapter's 3.1M
    text = "## S\n\n适配器共约 3.1M 个参数，占 13B 模型的很小一部分。\n\n参数量翻倍到约 6.2M。\n"
    assert [v for _, v, _ in _verdicts(scan_text, text)] == ["pass"]
    # a figure per token before a figure per layer: different units, no draft
    other = "## S\n\nEach token costs 3 MB per token.\n\nPer layer it doubles to 6 MB per layer.\n"
    assert _verdicts(scan_text, other) == []


# What a card's memory leaves after what it holds: 48 − 26 = 22 GB.
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("An L40S has 48 GB. A 13B model in fp16 takes 26 GB, leaving 22 GB for the cache.\n", ""),
        (
            "We serve on a 48 GB GPU. The fp16 weights take 26 GB, leaving 22 GB for the cache.\n",
            "pass",
        ),
        (
            "We serve on a 48 GB GPU. The fp16 weights take 26 GB, leaving 32 GB for the cache.\n",
            "fail",
        ),
        ("用一张 48 GB 的卡部署。\n\n权重占 26 GB；剩余 22 GB 留给 KV Cache。\n", "pass"),
        ("用一张 48 GB 的卡部署。\n\n权重占 26 GB；剩余 12 GB 留给 KV Cache。\n", "fail"),
        # two sizes held: which of them the remainder leaves out is not stated
        ("On a 48 GB GPU, weights take 26 GB and activations 4 GB, leaving 18 GB.\n", ""),
    ],
)
def test_what_a_card_has_left(scan_text: ScanText, text: str, verdict: str) -> None:
    found = [f.verdict for f in scan_text("## S\n\n" + text) if f.id.startswith("rates-")]
    assert found == ([verdict] if verdict else [])


def _cue_lines_one_word_at_a_time(text: str) -> list[int]:
    """The cue lines found the plain way: every word and noun looked for on its own."""
    lower = text.lower()
    found = [at for word in rates._CUE_WORDS for at in rates._positions(lower, word)]
    found += [at for at in rates._positions(lower, "gpu") if rates._GPU_HOURS.match(lower, at)]
    found += [
        at
        for noun in rates._CUE_NOUNS
        for at in rates._positions(lower, noun)
        if rates._CUE_BEFORE.search(lower, max(0, at - 24), at)
    ]
    return sorted({text.count("\n", 0, at) + 1 for at in found})


def test_the_cue_lines_are_those_of_every_word_and_noun_looked_for_alone() -> None:
    """Words are looked for by their stems and the nouns of other scripts by one pattern: the
    same lines as each looked for alone, and no noun hides another where they would overlap."""
    nouns = [*rates._CUE_NOUNS, *(noun.upper() for noun in rates._CUE_NOUNS)]
    lines = [f"per {noun}: 12" for noun in nouns] + [f"a {noun} of 3" for noun in nouns]
    lines += [f"8 GB {word} 7.45 GiB" for word in rates._CUE_WORDS]
    lines += ["每条很长的序列 3 GiB", "1 个 token 对应 4 个字节", "GPU hours: 9", "gpu-小时"]
    text = "\n".join(lines)
    assert rates._cue_lines(parse_document(text)) == _cue_lines_one_word_at_a_time(text)
    ascii_only = parse_document(text.encode("ascii", "ignore").decode())
    assert rates._cue_lines(ascii_only) == (
        _cue_lines_one_word_at_a_time(text.encode("ascii", "ignore").decode())
    )
    others = [noun for noun in rates._CUE_NOUNS if not noun.isascii()]
    for one in others:
        for other in others:
            overlaps = any(one[-k:] == other[:k] for k in range(1, min(len(one), len(other))))
            assert not overlaps and (other == one or other not in one), (one, other)


def test_cue_lines_count_lines_of_the_text_itself_after_a_dotted_capital_i() -> None:
    from checkers.extract.recognizers.rates import _cue_lines

    # "İ" lowers to two characters with str.lower; the cue on line 4 must stay on line 4
    text = ("İ" * 60 + "\n") * 3 + "The cache, i.e. 2 GB per GPU.\n"
    assert _cue_lines(parse_document(text)) == [4]


def test_cue_lines_of_a_long_lesson_are_placed_without_counting_from_its_start() -> None:
    # a cue on each of 50,000 lines: each is placed by the lesson's line starts
    text = "a, i.e. b\n" * 50_000
    assert rates._cue_lines(parse_document(text)) == list(range(1, 50_001))
