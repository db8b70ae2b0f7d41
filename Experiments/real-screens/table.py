"""What a screen reader says per screen, side by side (before, after, with a detector), from the pages `uidetect describe` wrote:
one markdown table per screen (the utterances in navigation order, side by side)."""
import html
import json
import re
import sys
from pathlib import Path


def spoken(folder: Path):
    """Image id -> (status bar utterance or None, [utterances]) from each page's list."""
    out = {}
    for screen in json.loads((folder / "description.json").read_text()):
        page = (folder / (re.sub(r"[^A-Za-z0-9._-]", "_", screen["image_id"]) + ".html")).read_text()
        items = [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in re.findall(r"<li>(.*?)</li>", page, re.S)]
        items = [re.sub(r"\s*\([^()]*, id \d+\)$", "", i) for i in items]
        bar = re.search(r"Status bar, outside the order \(dashed\): (.*?) <span", page)
        out[screen["image_id"]] = (html.unescape(bar.group(1)) if bar else None, items)
    return out


# Columns: `label=FOLDER` arguments (or two bare folders, "before" and "after"); screens are the last column's.
args = sys.argv[1:]
if all("=" not in a for a in args):
    args = [f"before={args[0]}", f"after={args[1]}"]
columns = []
for arg in args:
    label, folder = arg.split("=", 1)
    folder = Path(folder)
    columns.append((label, spoken(folder) if (folder / "description.json").exists() else {}))
for image_id, (bar, _) in columns[-1][1].items():
    lists = [said.get(image_id, (None, []))[1] for _, said in columns]
    counts = ", ".join(f"{len(xs)} {label}" for (label, _), xs in zip(columns, lists))
    print(f"### {image_id}\n")
    print(f"elements: {counts}; status bar ({columns[-1][0]}): {bar or 'none found'}\n")
    print("| # | " + " | ".join(label for label, _ in columns) + " |\n| ---: |" + " --- |" * len(columns))
    for k in range(max(len(xs) for xs in lists)):
        cells = [xs[k].replace("|", "\\|") if k < len(xs) else "" for xs in lists]
        print(f"| {k + 1} | " + " | ".join(cells) + " |")
    print()
