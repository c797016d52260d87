"""The pictures in the docs, drawn by mqsh's own commands from the labs.

    python3 docs/pictures/make.py            write every picture into docs/pictures/
    python3 docs/pictures/make.py --check    draw them afresh elsewhere; exit 1 if a committed one differs
    python3 docs/pictures/make.py --markdown the lines each docs page shows beside its picture

Each picture is a lab of examples/ run whole in a data directory of its own,
then the command that draws it (LAB TIMELINE ... SVG). The labs set the
simulated clock and nothing else in a picture depends on the machine or the
moment it is drawn, so drawing them again gives the same bytes: a picture
that differs from the committed one means the drawing or the lab changed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Drawing:
    file: str  # in docs/pictures/
    lab: str  # in examples/
    command: str  # draws it, given SVG('file')
    page: str  # the docs page that shows it
    caption: str
    after: str = ""  # the lab's line after which it is drawn; none: at the lab's end

    def drawn_by(self, target: str) -> str:
        return f"{self.command} SVG('{target}')"

    def markdown(self) -> str:
        """What the page shows: the picture, then the command that drew it."""
        moment = f"after `{self.after}` in" if self.after else "at the end of"
        return (
            f"![{self.caption}](pictures/{self.file})\n\n"
            f"Drawn {moment} lab `examples/{self.lab}` by `{self.drawn_by(self.file)}` "
            "(`python3 docs/pictures/make.py` draws every picture again)."
        )


DRAWINGS = [
    Drawing(
        "lab12-kahadb-timeline.svg",
        "12-kahadb-recovery.mqsc",
        "LAB TIMELINE QMGR(LAB.KAHA)",
        "logs-and-media-recovery.md",
        "Lab 12: a missing extent passed over at start, two restarts",
    ),
    Drawing(
        "lab21-medialog-timeline.svg",
        "21-medialog-and-full-log.mqsc",
        "LAB TIMELINE QMGR(LAB.FILL)",
        "logs-and-media-recovery.md",
        "Lab 21: MEDIALOG held back by a damaged queue while the log fills",
    ),
    Drawing(
        "lab38-offsite-dr-cfstruct.svg",
        "38-offsite-dr.mqsc",
        "LAB TIMELINE QMGR(QM1) CFSTRUCT(APP1)",
        "queue-sharing-groups.md",
        "Lab 38: the three members' logs, the backup, and the recovery site's RECOVER CFSTRUCT",
    ),
    Drawing(
        "lab42-production-pa.svg",
        "42-dr-copy-same-qmid.mqsc",
        "LAB TIMELINE QMGR(PA)",
        "clusters-and-dr.md",
        "Lab 42: production PA's log and the file-level backup taken for the DR test",
    ),
    Drawing(
        "lab42-dr-copy-pa-dr.svg",
        "42-dr-copy-same-qmid.mqsc",
        "LAB TIMELINE QMGR(PA.DR)",
        "clusters-and-dr.md",
        "Lab 42: the DR copy PA.DR - PA's log to the backup, then its own",
    ),
    Drawing(
        "lab44-dr-site-cut-off.svg",
        "44-isolating-a-dr-test.mqsc",
        "LAB MAP CLUSTER(DEMO)",
        "clusters-and-dr.md",
        "Lab 44: the DR site cut off from production; PADR's channel to the full "
        "repository cannot cross the cut",
        after="DISPLAY CHSTATUS(TO.FR1) STATUS XQMSGSA",
    ),
]


def draw(into: Path) -> list[Path]:
    """Every picture drawn into a folder; each lab runs once for the pictures made from it."""
    drawn = []
    for lab in sorted({drawing.lab for drawing in DRAWINGS}):
        wanted = [drawing for drawing in DRAWINGS if drawing.lab == lab]
        with tempfile.TemporaryDirectory() as scratch:
            lines = [
                line for line in (REPO / "examples" / lab).read_text().splitlines() if line.strip() != "END"
            ]
            for drawing in wanted:
                at = lines.index(drawing.after) + 1 if drawing.after else len(lines)
                lines.insert(at, drawing.drawn_by(str(into / drawing.file)))
            script = Path(scratch) / "picture.mqsc"
            script.write_text("\n".join(lines) + "\nEND\n")
            subprocess.run(
                [sys.executable, "-m", "mqsh", "--data-dir", str(Path(scratch) / "data"), "-f", str(script)],
                cwd=REPO,
                capture_output=True,
                text=True,
                check=False,
            )
        for drawing in wanted:
            if not (into / drawing.file).exists():
                raise SystemExit(
                    f"{drawing.file} was not drawn: {drawing.drawn_by(drawing.file)} failed in {lab}"
                )
            drawn.append(into / drawing.file)
    return drawn


def drifted() -> list[str]:
    """The committed pictures that differ from a fresh drawing (or are missing)."""
    with tempfile.TemporaryDirectory() as fresh:
        return [
            path.name
            for path in draw(Path(fresh))
            if not (HERE / path.name).exists() or (HERE / path.name).read_bytes() != path.read_bytes()
        ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare fresh drawings with the committed ones")
    parser.add_argument(
        "--markdown", action="store_true", help="print what each page shows beside its picture"
    )
    args = parser.parse_args(argv)
    if args.markdown:
        for drawing in DRAWINGS:
            print(f"{drawing.page}:\n\n{drawing.markdown()}\n")
        return 0
    if args.check:
        changed = drifted()
        for name in changed:
            print(f"{name} differs from a fresh drawing: run python3 docs/pictures/make.py")
        return 1 if changed else 0
    for path in draw(HERE):
        print(f"drew {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
