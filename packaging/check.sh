#!/usr/bin/env bash
# The packaging Settle ships, checked (`make package-check`, run by CI): the .desktop file and
# the AppStream metainfo validate, and a wheel built from the tree resolves its dependencies
# against requirements/lock.txt, installs into a fresh virtual environment, and runs
# `settle-cli models` there, finding the embedded model with its adapter, and reads the engine's
# own data files (the English word lists) from the installed packages.
set -euo pipefail
cd "$(dirname "$0")/.."
desktop-file-validate packaging/org.settlewriter.Settle.desktop
appstreamcli validate --no-net packaging/org.settlewriter.Settle.metainfo.xml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.venv/bin/python -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" .
wheel=$(ls "$work"/dist/settle_writer-*.whl)
python3 -m venv "$work/venv"
pip=("$work/venv/bin/python" -m pip --quiet)
"${pip[@]}" install --dry-run --ignore-installed -c requirements/lock.txt "$wheel"
"${pip[@]}" install --no-deps "$wheel"
(cd "$work" && "$work/venv/bin/settle-cli" models) | tee "$work/models.txt"
grep -q "SmolLM2-135M diffusion (adapted)" "$work/models.txt"
# The engine's data files travel inside its packages: the installed wheel reads its English,
# with the language packages it reads them beside (pure Python and data, no torch), pinned.
"${pip[@]}" install -c requirements/lock.txt lemminflect symspellpy jellyfish contractions inflect
(cd "$work" && "$work/venv/bin/python" -c "
from engine.intent import read_intent
from engine.language.en import grammar, registers, spelling
from engine.language.en.forms import other_forms
assert read_intent('make it tighter').shorter and grammar.CLOSED_SETS
assert 'went' in other_forms('go') and registers.EXPANSIONS
assert 'receive' in [word for word, _ in spelling.dictionary_candidates('recieve')]
from engine.language.en.articles import indefinite_for
assert indefinite_for('hour') == 'an' and indefinite_for('user') == 'a'
")
echo "packaging checks passed: $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"
