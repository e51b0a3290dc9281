#!/usr/bin/env bash
# Build the PyInstaller folder bundle of Settle into dist/settle-<version>/ (`make bundle`), then
# smoke-test it: the bundled app starts offscreen, shows its window and quits cleanly.
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pip install --quiet -c requirements/lock.txt -r requirements/bundle.txt
started=$(date +%s)
.venv/bin/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build \
  packaging/settle.spec
version=$(.venv/bin/python -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')
bundle="dist/settle-${version}"
echo "built ${bundle} in $(( $(date +%s) - started )) s: $(du -sh "${bundle}" | cut -f1)"
packaging/smoke.sh "${bundle}/settle"
