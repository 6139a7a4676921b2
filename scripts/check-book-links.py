#!/usr/bin/env python3
"""Every relative link of the built book reaches a page that is there.

`docs/book/tests/links.rs` checks the Markdown sources; this checks what mdbook made of them
(`scripts/test` runs it after `mdbook build docs/book`): a link to a file outside the book's
source (`docs/`), or to a Markdown file the summary does not list, becomes a link to a page
mdbook never writes. Usage: check-book-links.py BOOK_DIR (default target/book)."""

import html.parser
import os
import sys
import urllib.parse


class Hrefs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.hrefs.append(value)


def relative(href):
    parsed = urllib.parse.urlparse(href)
    return not parsed.scheme and not parsed.netloc and parsed.path


def main():
    book = sys.argv[1] if len(sys.argv) > 1 else "target/book"
    dead, checked = [], 0
    for folder, _, files in os.walk(book):
        for name in files:
            if not name.endswith(".html"):
                continue
            page = os.path.join(folder, name)
            parser = Hrefs()
            with open(page, encoding="utf-8") as f:
                parser.feed(f.read())
            for href in parser.hrefs:
                if not relative(href):
                    continue
                path = urllib.parse.unquote(urllib.parse.urlparse(href).path)
                target = os.path.normpath(os.path.join(folder, path))
                checked += 1
                if not os.path.exists(target):
                    dead.append(f"{os.path.relpath(page, book)}: {href}")
    if dead:
        print("dead links in the built book:\n  " + "\n  ".join(sorted(set(dead))))
        return 1
    print(f"check-book-links: {checked} relative links of {book} reach their pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
