"""What a screen reader says per screen, before and after, from the pages `uidetect describe` wrote:
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


before_dir, after_dir = Path(sys.argv[1]), Path(sys.argv[2])
before = spoken(before_dir) if (before_dir / "description.json").exists() else {}
after = spoken(after_dir)
for image_id, (bar, items) in after.items():
    old = before.get(image_id, (None, []))[1]
    print(f"### {image_id}\n")
    print(f"{len(old)} elements before, {len(items)} after; status bar: {bar or 'none found'}\n")
    print("| # | before | after |\n| ---: | --- | --- |")
    for k in range(max(len(old), len(items))):
        cell = lambda xs: xs[k].replace("|", "\\|") if k < len(xs) else ""
        print(f"| {k + 1} | {cell(old)} | {cell(items)} |")
    print()
