"""A stand-in for JFLEG's gleu.py with its command line and output format, for the runner's
tests: the score is the share of hypothesis lines equal to a line of any reference."""

from __future__ import annotations

import argparse
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ref", "-r", nargs="*", required=True)
    parser.add_argument("--src", "-s", required=True)
    parser.add_argument("--hyp", nargs="*", required=True)
    args = parser.parse_args()
    refs = [Path(r).read_text(encoding="utf-8").splitlines() for r in args.ref]
    sources = Path(args.src).read_text(encoding="utf-8").splitlines()
    for path in args.hyp:
        hyp = Path(path).read_text(encoding="utf-8").splitlines()
        assert len(hyp) == len(sources) == len(refs[0]), "gleu.py reads aligned files"
        same = sum(any(h == ref[i] for ref in refs) for i, h in enumerate(hyp))
        print(path)
        print([[f"{same / len(hyp):f}", "0.000000", "(0.000,1.000)"]])


if __name__ == "__main__":
    main()
