"""A copy of a report that starts at one of its sections, for a headless browser's screenshot.

Chromium's --screenshot captures the top of the page (a #fragment does not scroll what it captures),
so the copy keeps the page's head and title and drops what comes before the section.
usage: python3 section-page.py REPORT.html MARKER OUT.html   (MARKER: the text the section starts with)
"""
import sys

page = open(sys.argv[1], encoding="utf-8").read()
marker = sys.argv[2]
title_end = page.index("</h1>") + len("</h1>")
start = page.index(marker)
open(sys.argv[3], "w", encoding="utf-8").write(page[:title_end] + page[start:])
