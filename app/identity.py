"""Who the app is: one reverse-DNS id shared by QSettings, ``setDesktopFileName``, the ``.desktop``
file and the AppStream metainfo in ``packaging/`` (a test checks they agree)."""

from __future__ import annotations

from importlib import metadata

APP_ID = "org.settlewriter.Settle"
APP_NAME = "Settle"
ORGANIZATION = "settlewriter.org"
DISTRIBUTION = "settle-writer"


def version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"
