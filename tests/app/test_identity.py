"""One app id everywhere: Qt, the .desktop file and the AppStream metainfo."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from app.identity import APP_ID, DISTRIBUTION

ROOT = Path(__file__).resolve().parents[2]


def test_desktop_file_and_metainfo_carry_the_app_id() -> None:
    desktop = ROOT / "packaging" / f"{APP_ID}.desktop"
    assert f"StartupWMClass={APP_ID}" in desktop.read_text(encoding="utf-8")
    meta = ET.parse(ROOT / "packaging" / f"{APP_ID}.metainfo.xml").getroot()
    assert meta.findtext("id") == APP_ID
    assert meta.findtext("launchable") == f"{APP_ID}.desktop"


def test_distribution_and_gui_script_match_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION
    assert project["gui-scripts"]["settle"] == "app.main:main"
