"""Messages between the window and the worker: small frozen dataclasses, no torch types.

Everything here is picklable and cheap, because it crosses a process boundary many times a
second. The widgets (``ui/``) import only this module and :mod:`engine.core.config` from the engine
(``tests/test_layering.py`` checks it), and the app imports it everywhere, so it must stay free
of heavy imports.

Requests flow GUI → worker: :class:`LoadModel`, :class:`Edit`, :class:`Fill`,
:class:`RankSuggestions`, :class:`Cancel`, :class:`Shutdown`.
Events flow worker → GUI: :class:`LoadProgress`, :class:`ModelReady`, :class:`Frame`,
:class:`Proposal`, :class:`SuggestionsRanked`, :class:`Failed`, :class:`Cancelled`; a remote
engine adds :class:`Queued`, and its client :class:`EngineLink` (never on the wire).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.core.config import SamplerSettings

# --- shared pieces -------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Span:
    """A half-open character range ``[start, end)`` in a document's text."""

    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start

    def overlaps(self, other: Span) -> bool:
        return self.start < other.end and other.start < self.end

    def contains(self, other: Span) -> bool:
        return self.start <= other.start and other.end <= self.end


class TokenState(StrEnum):
    """How settled one canvas position is, as the draft overlay shows it."""

    NOISE = "noise"  # masked / random: nothing to show yet
    PROVISIONAL = "provisional"  # the model's current guess, may still change
    SETTLED = "settled"  # committed by the sampler
    LOCKED = "locked"  # copied from the user's text, never changes


class EditMode(StrEnum):
    REWRITE = "rewrite"  # replace a selection, keeping locked spans
    DRAFT = "draft"  # insert new text at a cursor position
    FILL = "fill"  # a structured template's values (engine.structured), no rewrite passes


# --- requests ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadModel:
    """Load (or switch to) a model. ``model`` is a registry id or a local folder path."""

    model: str
    device: str = "auto"
    allow_remote_code: bool = False


# The user's own words a request may carry (``Edit.known_words``): the words of their
# dictionary that stand in the target, so a few dozen at most; a word is one word, not a text.
MAX_KNOWN_WORDS = 1000
MAX_KNOWN_WORD_CHARS = 64


@dataclass(frozen=True)
class Edit:
    """Rewrite ``target`` of ``text`` (or draft at ``target.start`` when the span is empty).

    ``locks`` are absolute spans inside ``target`` that must come back byte for byte.
    ``known_words`` are spelled as the user wants them (their dictionary): never "corrected".
    """

    request_id: int
    text: str
    target: Span
    locks: tuple[Span, ...] = ()
    instruction: str = ""
    mode: EditMode = EditMode.REWRITE
    settings: SamplerSettings = field(default_factory=SamplerSettings)
    known_words: tuple[str, ...] = ()


class FillKind(StrEnum):
    JSON = "json"  # a JSON instance under a JSON Schema
    TABLE = "table"  # a GitHub-flavoured Markdown table


@dataclass(frozen=True)
class Fill:
    """Structured infill of ``target`` in ``text`` (DESIGN §7); answered like an edit.

    JSON: ``schema`` is the JSON Schema's text; the target's text, when not blank, is the
    template instance; ``locks`` are JSON pointers kept verbatim; ``include`` optional
    properties (JSON pointers) to add. Table: the target is the table; ``cells`` picks the
    slots (``"empty"``, ``"all"`` or ``"R,C;R,C"``, body rows and columns from 1);
    ``add_rows`` appends that many rows to fill; each cell gets ``cell_tokens`` tokens.
    """

    request_id: int
    kind: FillKind
    text: str
    target: Span
    schema: str = ""
    locks: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    cells: str = "empty"
    add_rows: int = 0
    cell_tokens: int = 12
    settings: SamplerSettings = field(default_factory=SamplerSettings)


# A spelling menu's ranking: the suggestions the menu lists (the dictionary offers up to nine,
# a contraction or two words among them) and the text read on either side of the word (its
# sentence and some before; the reader keeps the last of it, as a rewrite's does).
MAX_RANKED_SUGGESTIONS = 16
MAX_RANK_CONTEXT_CHARS = 2000
MAX_SUGGESTION_CHARS = 2 * MAX_KNOWN_WORD_CHARS  # a word, two words ("in order"), a contraction


@dataclass(frozen=True)
class RankSuggestions:
    """Order a misspelt ``word``'s ``suggestions`` as the loaded model reads each in its place,
    between ``before`` and ``after``, priced by how likely the slip it undoes is (what "fix
    spelling" weighs). Answered by :class:`SuggestionsRanked`; it cancels nothing, and a newer
    one makes an older one still waiting unnecessary (that one is answered :class:`Cancelled`)."""

    request_id: int
    before: str
    word: str
    after: str
    suggestions: tuple[str, ...]

    def problem(self) -> str:
        """Why no menu would send this request (the worker and the wire refuse it, saying
        so), or ``""``."""
        if not self.word.strip() or len(self.word) > MAX_KNOWN_WORD_CHARS:
            return (
                f"The word to rank suggestions for must be 1 to {MAX_KNOWN_WORD_CHARS} characters."
            )
        if not 1 <= len(self.suggestions) <= MAX_RANKED_SUGGESTIONS:
            return (
                f"1 to {MAX_RANKED_SUGGESTIONS} suggestions can be ranked at once; "
                f"this request has {len(self.suggestions)}."
            )
        if not all(_one_line(s, MAX_SUGGESTION_CHARS) for s in self.suggestions):
            return (
                f"Each suggestion is one line of 1 to {MAX_SUGGESTION_CHARS} characters (one "
                "word, two words or a contraction)."
            )
        if len(set(self.suggestions)) != len(self.suggestions) or self.word in self.suggestions:
            return "A suggestion to rank is listed twice, or is the word itself."
        longest = max(len(self.before), len(self.after))
        if longest > MAX_RANK_CONTEXT_CHARS:
            return (
                f"At most {MAX_RANK_CONTEXT_CHARS:,} characters before and after the word are "
                f"read to rank its suggestions; this request sends {longest:,}."
            )
        return ""


def _one_line(text: str, longest: int) -> bool:
    return bool(text.strip()) and len(text) <= longest and not any(c in text for c in "\n\r\t")


@dataclass(frozen=True)
class Cancel:
    request_id: int


@dataclass(frozen=True)
class Shutdown:
    pass


Request = LoadModel | Edit | Fill | RankSuggestions | Cancel | Shutdown

# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadProgress:
    stage: str  # e.g. "converting GGUF", "loading weights"
    fraction: float  # 0..1 for the stage, or -1 when unknown
    message: str = ""


@dataclass(frozen=True)
class ModelInfo:
    """What the window shows about the loaded model."""

    model_id: str
    display_name: str  # includes "base, not adapted" when that is the truth
    family: str  # "masked" | "diffusion-gemma"
    device: str
    parameters: int
    placement: str = ""  # where the layers went (accelerate device map summary)


@dataclass(frozen=True)
class ModelReady:
    info: ModelInfo


@dataclass(frozen=True)
class TokenView:
    """One canvas position as the overlay draws it."""

    index: int
    text: str
    state: TokenState
    confidence: float


@dataclass(frozen=True)
class Frame:
    """A draft step. ``updates`` holds only positions that changed since the previous frame;
    the first frame of a request holds all ``length`` positions.

    Before the first denoising step a rewrite's passes may read the model (proofreading,
    pricing a shorter rewrite's cuts): its frames then name the pass reading next in
    ``stage`` (a pass name of ``engine.passes.order``, "" once the steps run) and the passage
    reads so far in ``reads``."""

    request_id: int
    step: int
    max_steps: int
    length: int
    updates: tuple[TokenView, ...]
    forwards: int = 0
    elapsed_s: float = 0.0
    stage: str = ""
    reads: int = 0


@dataclass(frozen=True)
class Metrics:
    """Per-request numbers, named after the seed article's list (DESIGN §9)."""

    time_to_first_frame_s: float
    time_to_settle_s: float
    steps: int
    forwards: int
    tokens_generated: int
    tokens_per_forward: float
    churn: float  # share of displayed provisional tokens that later changed
    tokens_per_second: float
    put_back: int = 0  # a rewrite's changed runs its self-check put back (engine.passes.reread)

    def summary(self) -> str:
        checked = f", {self.put_back} put back by the model's check" if self.put_back else ""
        return (
            f"{self.steps} steps, {self.tokens_per_forward:.2f} tok/forward, "
            f"{self.tokens_per_second:.1f} tok/s, "
            f"first frame {self.time_to_first_frame_s * 1000:.0f} ms, "
            f"settled in {self.time_to_settle_s:.2f} s, churn {self.churn:.0%}{checked}"
        )


@dataclass(frozen=True)
class SegmentText:
    """One segment of a proposal: ``locked`` ones are the user's original string."""

    text: str
    locked: bool


@dataclass(frozen=True)
class Alternative:
    """Another version of a proposal's text (``SamplerSettings.alternatives`` > 1): the review
    offers its hunks beside the first version's. Never equal to the proposal or to another."""

    text: str
    segments: tuple[SegmentText, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Proposal:
    """The settled result: ``text`` replaces ``target`` in the document when the user accepts."""

    request_id: int
    target: Span
    text: str
    segments: tuple[SegmentText, ...]
    locks: tuple[str, ...]
    metrics: Metrics
    notes: tuple[str, ...] = ()  # for the review: what a fill computed; what a rewrite could not
    alternatives: tuple[Alternative, ...] = ()  # versions 2..N, each distinct (issue 29)


@dataclass(frozen=True)
class Failed:
    """A request (or the worker itself) failed. ``kind`` lets the window pick its wording."""

    request_id: int | None
    kind: str  # "bad-request" | "model-load" | "out-of-memory" | "worker-died" | "internal"
    message: str
    detail: str = ""


@dataclass(frozen=True)
class SuggestionsRanked:
    """A :class:`RankSuggestions`' answer: the same suggestions, the likeliest first, each with
    what it saves over the word as typed less its slip's price (nats; the higher the better)."""

    request_id: int
    word: str
    suggestions: tuple[str, ...]
    nats: tuple[float, ...]


@dataclass(frozen=True)
class Cancelled:
    request_id: int


@dataclass(frozen=True)
class Queued:
    """A remote engine's queue: ``position`` requests (of any client) run before this one."""

    request_id: int
    position: int


@dataclass(frozen=True)
class EngineLink:
    """How the window reaches a remote engine: its host and the last measured round trip."""

    host: str
    rtt_s: float


Event = (
    LoadProgress
    | ModelReady
    | Frame
    | Proposal
    | SuggestionsRanked
    | Failed
    | Cancelled
    | Queued
    | EngineLink
)


class DraftView:
    """The client's picture of the current draft, rebuilt from frames' partial updates."""

    def __init__(self) -> None:
        self.request_id: int | None = None
        self.tokens: list[TokenView] = []

    def apply(self, frame: Frame) -> None:
        if frame.request_id != self.request_id or len(self.tokens) != frame.length:
            self.request_id = frame.request_id
            self.tokens = [TokenView(i, "", TokenState.NOISE, 0.0) for i in range(frame.length)]
        for update in frame.updates:
            self.tokens[update.index] = update

    def text(self) -> str:
        return "".join(token.text for token in self.tokens)
