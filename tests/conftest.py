"""Suite-wide set-up: headless Qt, one torch thread, no network, hypothesis profile."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Tests never write into the user's home: model conversions and recovery snapshots go to a
# folder of this test session (the embedded model converts at most once per session).
_SESSION_DIR = tempfile.mkdtemp(prefix="settle-tests-")
os.environ["SETTLE_CACHE_DIR"] = os.path.join(_SESSION_DIR, "cache")
os.environ["SETTLE_RECOVERY_DIR"] = os.path.join(_SESSION_DIR, "recovery")
os.environ["SETTLE_LOG_DIR"] = os.path.join(_SESSION_DIR, "logs")
# Server tokens and remote engines' tokens: a session folder, and never the user's keyring.
os.environ["SETTLE_CONFIG_DIR"] = os.path.join(_SESSION_DIR, "config")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "settle",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile("settle")
