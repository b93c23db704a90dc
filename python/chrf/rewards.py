"""chrF as a reward in reinforcement-learning fine-tuning: TRL's reward functions, verl's
``compute_score``, and a reference-free group reward (the MBR consensus of each completion).

``reward_funcs=[chrf.rewards.chrf_reward(references="reference")]`` gives TRL's ``GRPOTrainer``
each completion's sentence chrF against the references in the dataset's ``reference`` column,
scored in one call into the core per batch. Completions are plain strings or conversations
(lists of messages: the last assistant message is scored). Nothing here imports TRL or verl.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

from chrf import _service
from chrf._inputs import as_list
from chrf._keywords import with_options_doc
from chrf._messages import shown
from chrf._numbers import is_bool, is_float
from chrf._settings import Options, Settings, score_name, settings_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ChrfReward", "ConsensusReward", "chrf_reward", "compute_score", "consensus_reward"]

Scale: TypeAlias = Literal[1, 100]
"""A reward's range: 1 for 0..1 (sacreBLEU's score / 100), 100 for sacreBLEU's 0..100."""

#: The keyword arguments verl's reward loop adds for a reward-model router; `compute_score` takes
#: and ignores them, so that every other unknown keyword is still refused as a typo.
VERL_EXTRAS = frozenset({"reward_router_address", "reward_model_tokenizer"})


class ChrfReward:
    """A TRL reward function: each completion's sentence chrF against its references.

    Made by :func:`chrf_reward`. Called as TRL's ``GRPOTrainer`` calls a reward function:
    ``reward(prompts=..., completions=..., completion_ids=..., **columns)``, where ``columns``
    are the dataset's other columns, one value per completion. Returns one float per
    completion. Its ``__name__`` (TRL's name in the logs, ``rewards/<name>/mean``) is the
    score's name, ``chrF2`` or ``chrF2++``, unless ``name`` was given.
    """

    def __init__(self, settings: Settings, references: str, scale: Scale, name: str) -> None:
        self.settings = settings
        self.references = references
        self.scale = scale
        self.__name__ = name

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        **columns: Any,
    ) -> list[float]:
        """One reward per completion: sacreBLEU's sentence chrF / 100 (``scale=1``) or as it
        is (``scale=100``) against the references in ``columns[self.references]``."""
        texts = _completion_texts(completions)
        return _scaled(
            _reference_scores(self.settings, texts, columns, self.references), self.scale
        )

    def __repr__(self) -> str:
        return (
            f"chrf_reward(references={self.references!r}, scale={self.scale}, "
            f"name={self.__name__!r}, **{self.settings.options()!r})"
        )


class ConsensusReward:
    """A TRL reward function without references: each completion's expected chrF against the
    other completions of the same prompt (see :func:`consensus_reward` for the formula).

    Made by :func:`consensus_reward`; called as :class:`ChrfReward` is, ``prompts`` required.
    """

    def __init__(
        self,
        settings: Settings,
        references: str,
        reference_weight: float,
        scale: Scale,
        name: str,
    ) -> None:
        self.settings = settings
        self.references = references
        self.reference_weight = reference_weight
        self.scale = scale
        self.__name__ = name

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        **columns: Any,
    ) -> list[float]:
        """One reward per completion: ``(1 - w) * consensus + w * chrF against references``,
        with ``w = reference_weight``, divided by 100 when ``scale=1``."""
        texts = _completion_texts(completions)
        utilities = _consensus(self.settings, texts, _prompt_groups(prompts, len(texts)))
        weight = self.reference_weight
        if weight == 0:
            return _scaled(utilities, self.scale)
        scores = _reference_scores(self.settings, texts, columns, self.references)
        return _scaled(
            [(1 - weight) * u + weight * s for u, s in zip(utilities, scores, strict=True)],
            self.scale,
        )

    def __repr__(self) -> str:
        return (
            f"consensus_reward(reference_weight={self.reference_weight!r}, "
            f"references={self.references!r}, scale={self.scale}, name={self.__name__!r}, "
            f"**{self.settings.options()!r})"
        )


@with_options_doc()
def chrf_reward(
    references: str = "reference",
    *,
    scale: Scale = 1,
    name: str | None = None,
    **options: Unpack[Options],
) -> ChrfReward:
    """A TRL reward function of sentence chrF against references: ``reward_funcs=[chrf_reward()]``.

    ``references`` names the dataset column of the references: each row holds one str or a
    list of str (several references: the best one counts, as in sacreBLEU; ``None`` items are
    skipped). A row without any reference is a ValueError naming the column and the
    completion's index. ``scale=1`` gives sacreBLEU's sentence score / 100, ``scale=100`` the
    score itself. ``name`` is the function's ``__name__``, which TRL logs the rewards under
    (default: the score's name, ``chrF2`` or ``chrF2++``). The options are checked here, once.
    """
    settings = settings_of(options)
    settings.check_float()
    return ChrfReward(
        settings,
        _column(references),
        _scale(scale),
        _name(name, score_name(settings.beta, settings.word_order)),
    )


@with_options_doc()
def consensus_reward(
    *,
    reference_weight: float = 0.0,
    references: str = "reference",
    scale: Scale = 1,
    name: str | None = None,
    **options: Unpack[Options],
) -> ConsensusReward:
    """A reference-free TRL reward function: the MBR consensus of each completion in its group.

    The group of completion i is every completion whose prompt equals prompt i (TRL repeats
    each prompt once per generation). With G the group's size and s(a, b) sacreBLEU's sentence
    chrF of a against the single reference b, completion i's consensus is
    U_i = Σ_{j in group, j ≠ i} s(c_i, c_j) / (G - 1), the exact mean rounded once to a double
    (as :func:`chrf.expected_utility` rounds it); a completion alone in its group has U_i = 0.
    The reward is ((1 - w)·U_i + w·R_i) / 100 for ``scale=1`` (without the division for
    ``scale=100``), where w is ``reference_weight`` (from 0 to 1) and R_i the completion's chrF
    against the ``references`` column, read only when w > 0. ``name`` defaults to
    ``chrF2_consensus``.
    """
    settings = settings_of(options)
    settings.check_float()
    weight = _weight(reference_weight)
    default = f"{score_name(settings.beta, settings.word_order)}_consensus"
    return ConsensusReward(
        settings, _column(references), weight, _scale(scale), _name(name, default)
    )


@with_options_doc()
def compute_score(
    data_source: object,
    solution_str: str,
    ground_truth: str | Iterable[str | None],
    extra_info: object = None,
    *,
    scale: Scale = 1,
    **options: Any,
) -> float:
    """verl's custom reward function: sentence chrF of ``solution_str`` against ``ground_truth``.

    In verl's configuration: ``reward.custom_reward_function.path=pkg://chrf.rewards`` and
    ``name=compute_score``; chrF's options go in its ``reward_kwargs`` (e.g. ``word_order: 2``).
    ``ground_truth`` is one reference or a list of them (the best counts). ``data_source`` and
    ``extra_info`` are not read; ``scale`` as for :func:`chrf_reward`.
    """
    for extra in VERL_EXTRAS & options.keys():
        del options[extra]
    settings = settings_of(cast("Options", options))
    if not isinstance(solution_str, str):
        raise TypeError(f"solution_str must be str, not {type(solution_str).__name__}")
    refs = _references_of(ground_truth, "ground_truth")
    scores = _service.compiled_sentence_scores(
        settings.compiled, [solution_str], [refs], "per_hypothesis"
    )
    score = float(scores[0])
    return score / 100 if _scale(scale) == 1 else score


def _completion_texts(completions: object) -> list[str]:
    """The text of each completion: a str as it is, a conversation's last assistant message."""
    if completions is None:
        raise TypeError("the reward function needs completions=")
    items = as_list(completions, "completions")
    if all(type(item) is str for item in items):
        return items  # type: ignore[return-value]
    return [_text_of_completion(item, i) for i, item in enumerate(items)]


def _text_of_completion(completion: object, i: int) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list | tuple):
        for message in reversed(completion):
            if isinstance(message, Mapping) and message.get("role") == "assistant":
                return _content(message.get("content"), i)
        raise ValueError(f"completions[{i}] has no assistant message: {shown(completion)}")
    raise TypeError(
        f"completions[{i}] must be a str or a list of messages, not {type(completion).__name__}"
    )


def _content(content: object, i: int) -> str:
    """A message's content: a str; None (a turn of tool calls alone) as ""; a list of parts,
    their text parts joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list | tuple) and all(isinstance(p, Mapping) for p in content):
        parts = [p.get("text") for p in content if p.get("type") == "text"]
        if all(isinstance(p, str) for p in parts):
            return "".join(cast("list[str]", parts))
    raise TypeError(
        f"completions[{i}]: the assistant message's content must be a str or a list of text "
        f"parts, not {shown(content)}"
    )


def _reference_scores(
    settings: Settings, texts: list[str], columns: Mapping[str, Any], column: str
) -> list[float]:
    """sacreBLEU's sentence score (0..100) of each text against its row of ``column``."""
    if column not in columns:
        known = sorted(k for k in columns if k not in ("trainer_state", "log_extra", "log_metric"))
        raise ValueError(
            f"no column {column!r} of references among the dataset's columns {known}: "
            "pass references=<the column that holds them>"
        )
    rows = as_list(columns[column], column)
    if len(rows) != len(texts):
        raise ValueError(f"the column {column!r} has {len(rows)} rows for {len(texts)} completions")
    if not rows:
        return []  # an empty batch: the core refuses no hypotheses, a trainer expects no rewards
    if all(type(row) is str for row in rows):
        refs: object = rows
        layout = None
    else:
        refs = [_references_of(row, f"{column}[{i}]") for i, row in enumerate(rows)]
        layout = "per_hypothesis"
    scores = _service.compiled_sentence_scores(settings.compiled, texts, refs, layout)
    return scores.tolist()  # type: ignore[no-any-return]


def _references_of(row: object, where: str) -> list[str | None]:
    """One row's references as a list: a str alone, or a list (tuple, array) of str and None
    placeholders with at least one str."""
    if isinstance(row, str):
        return [row]
    if row is not None and not isinstance(row, Mapping | bytes):
        try:
            refs: list[str | None] = list(row)  # type: ignore[call-overload]
        except TypeError:
            pass
        else:
            if any(isinstance(ref, str) for ref in refs):
                return refs
            if all(ref is None for ref in refs):
                raise ValueError(f"{where} has no reference: {shown(row)}")
    if row is None:
        raise ValueError(f"{where} has no reference: None")
    raise TypeError(f"{where} must be a str or a list of str, not {shown(row)}")


def _prompt_groups(prompts: object, count: int) -> list[list[int]]:
    """The indices of the completions of each distinct prompt, in order of first appearance.
    Prompts are compared by value: strings, or conversations (lists of message dicts)."""
    if prompts is None:
        raise TypeError("the consensus reward needs prompts= to group the completions")
    items = as_list(prompts, "prompts")
    if len(items) != count:
        raise ValueError(f"{len(items)} prompts for {count} completions")
    groups: dict[object, list[int]] = {}
    for i, prompt in enumerate(items):
        groups.setdefault(_key(prompt, i), []).append(i)
    return list(groups.values())


def _key(value: object, i: int) -> object:
    """A hashable value equal for equal prompts: lists as tuples, dicts as sets of items."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return frozenset((k, _key(v, i)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(_key(v, i) for v in value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"prompts[{i}] holds a {type(value).__name__}, which cannot be compared "
            "to group the completions"
        ) from None
    return value


def _consensus(settings: Settings, texts: list[str], groups: list[list[int]]) -> list[float]:
    """Each text's exact mean chrF against the other texts of its group (0.0 alone in it).

    The groups' pairwise matrices come from one call into the core per group size (one call in
    TRL, where every prompt has ``num_generations`` completions): counting each text's n-grams
    once per group, where :func:`chrf.expected_utility` with a batch item per completion would
    count every other text of the group again for each completion."""
    utilities = [0.0] * len(texts)
    by_size: dict[int, list[list[int]]] = {}
    for group in groups:
        if len(group) > 1:
            by_size.setdefault(len(group), []).append(group)
    for same_size in by_size.values():
        items = [[texts[i] for i in group] for group in same_size]
        matrices = _service.pairwise_batched(settings, items, items).tolist()
        for group, matrix in zip(same_size, matrices, strict=True):
            for row, i in enumerate(group):
                utilities[i] = _mean_without(matrix[row], row)
    return utilities


def _mean_without(row: list[float], skip: int) -> float:
    """The mean of ``row`` without its item ``skip``, exact and rounded once to a double, as
    :func:`chrf.expected_utility` rounds it: the doubles' exact ratios share a power-of-two
    denominator, and int / int is correctly rounded."""
    ratios = [score.as_integer_ratio() for k, score in enumerate(row) if k != skip]
    denominator = max(d for _, d in ratios)
    total = sum(n * (denominator // d) for n, d in ratios)
    return total / (denominator * len(ratios))


def _scaled(scores: list[float], scale: Scale) -> list[float]:
    return [score / 100 for score in scores] if scale == 1 else scores


def _scale(scale: object) -> Scale:
    if is_bool(scale) or scale not in (1, 100):
        raise ValueError(f"scale must be 1 (rewards from 0 to 1) or 100, not {shown(scale)}")
    return 1 if scale == 1 else 100


def _weight(weight: object) -> float:
    if is_bool(weight) or not (isinstance(weight, int) or is_float(weight)):
        raise TypeError(f"reference_weight must be a number, not {type(weight).__name__}")
    value = float(weight)
    if not 0 <= value <= 1:
        raise ValueError(f"reference_weight must be from 0 to 1, not {shown(weight)}")
    return value


def _column(references: object) -> str:
    if not isinstance(references, str):
        raise TypeError(f"references must be a column name (str), not {type(references).__name__}")
    return references


def _name(name: object, default: str) -> str:
    if name is None:
        return default
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str or None, not {shown(name)}")
    return name
