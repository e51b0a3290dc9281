#!/usr/bin/env bash
# Build a folder bundle of Settle with PyInstaller into dist/ (name and version from pyproject).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pip install --quiet pyinstaller
.venv/bin/pyinstaller --noconfirm --distpath dist --workpath build packaging/settle.spec
