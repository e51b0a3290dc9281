"""The packaging Settle ships: the .desktop file and the AppStream metainfo validate with the
tools distributions use (Debian: desktop-file-utils, appstream; CI installs both), the metainfo
names the version pyproject builds, and the wheel carries the embedded model's adapter."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.identity import APP_ID

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


def validate(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (CI installs it)")
    return subprocess.run([tool, *args], capture_output=True, text=True, check=False)


def test_desktop_file_validates_without_hints() -> None:
    done = validate("desktop-file-validate", str(PACKAGING / f"{APP_ID}.desktop"))
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def test_metainfo_validates() -> None:
    done = validate(
        "appstreamcli", "validate", "--no-net", str(PACKAGING / f"{APP_ID}.metainfo.xml")
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "content-rating-missing" not in done.stdout


def test_metainfo_release_is_the_built_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    meta = ET.parse(PACKAGING / f"{APP_ID}.metainfo.xml").getroot()
    assert meta.find("releases/release").get("version") == project["version"]


def test_the_wheel_ships_the_adapter_and_the_desktop_files() -> None:
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    shipped = tool["setuptools"]["data-files"]
    adapter = shipped["share/settle/resources/models/smollm2-diffusion"]
    assert [f for pattern in adapter for f in ROOT.glob(pattern) if f.suffix == ".safetensors"]
    assert shipped["share/applications"] == [f"packaging/{APP_ID}.desktop"]
