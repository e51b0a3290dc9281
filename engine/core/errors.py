"""The engine's errors. Each carries a message written for the user, not for a developer.

The worker turns them into ``Failed`` events with a ``kind`` the window can act on.
"""


class SettleError(Exception):
    """Base class: something the user can understand and usually fix."""

    kind = "internal"


class BadRequest(SettleError, ValueError):
    """The request itself is wrong (selection, locks, settings): nothing was changed."""

    kind = "bad-request"


class ModelLoadError(SettleError):
    """A model could not be found, read or loaded."""

    kind = "model-load"


class OutOfMemory(SettleError):
    """The device ran out of memory; the message says what to try."""

    kind = "out-of-memory"


class InvariantViolation(SettleError):
    """A proposal broke a lock or touched text outside the target; it is never offered."""

    kind = "internal"


class CancelledError(Exception):
    """Raised inside a running request when its cancel flag is set."""
