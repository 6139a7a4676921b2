//! The book holds together: every chapter is in `SUMMARY.md` and compiled by `lib.rs`, and every
//! relative link in the book, the top-level README and the notes in `docs/` reaches a file that
//! is there, and a heading of it where the link names one (`#anchor`, as GitHub and mdbook make
//! them). Moving text between files cannot leave a dead link.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn book() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn root() -> PathBuf {
    book().join("../..").canonicalize().unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `.md` files directly in `dir`, sorted.
fn markdown_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

/// The chapter files in `src/`: every `.md` there but `SUMMARY.md`.
fn chapters() -> Vec<String> {
    markdown_in(&book().join("src"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "SUMMARY.md")
        .collect()
}

/// The text outside fenced code blocks, each line with its number; inside a block, empty lines.
fn prose(text: &str) -> Vec<(usize, String)> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m && trimmed.trim_end() == m => fence = None,
            _ => {}
        }
        let inside = fence.is_some() || marker.is_some();
        lines.push((
            i + 1,
            if inside {
                String::new()
            } else {
                line.to_string()
            },
        ));
    }
    lines
}

/// `text` with its code spans (a run of backticks to the next run of as many, across lines) and
/// HTML comments blanked out, newlines kept so line numbers still count.
fn without_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        if chars[i] == '`' {
            let run = chars[i..].iter().take_while(|&&c| c == '`').count();
            let mut j = i + run;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let other = chars[j..].iter().take_while(|&&c| c == '`').count();
                    if other == run {
                        close = Some(j + run);
                        break;
                    }
                    j += other;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    out.extend(chars[i..end].iter().map(|&c| blank(c)));
                    i = end;
                }
                None => {
                    out.extend(&chars[i..i + run]);
                    i += run;
                }
            }
        } else if chars[i..].starts_with(&['<', '!', '-', '-']) {
            let rest: String = chars[i..].iter().collect();
            let end = rest
                .find("-->")
                .map_or(chars.len(), |e| i + rest[..e].chars().count() + 3);
            out.extend(chars[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Every inline link and image target of a Markdown text, `[text](target)`, with its line.
fn links(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<String> = prose(text).into_iter().map(|(_, l)| l).collect();
    let text = without_code_spans(&lines.join("\n"));
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let mut depth = 0;
            let end = after
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' if depth == 0 => return true,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    false
                })
                .map_or(after.len(), |(e, _)| e);
            // A title after the target (`[a](b "title")`) is not part of it.
            let target = after[..end].split_whitespace().next().unwrap_or_default();
            let target = target.trim_start_matches('<').trim_end_matches('>');
            found.push((i + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// The anchors of a Markdown file's ATX headings, as GitHub and mdbook make them: the heading's
/// text (a link's text, not its target) lower-cased, each space a hyphen, everything that is not
/// a letter, a digit, `-` or `_` dropped; a repeated one gets `-1`, `-2`, ...
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = Vec::new();
    for (_, line) in prose(text) {
        let level = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&level) || !line[level..].starts_with(' ') {
            continue;
        }
        let heading = line[level..].trim().trim_end_matches('#').trim();
        // `[text](target)` reads as `text`.
        let mut plain = String::new();
        let mut rest = heading;
        while let Some(open) = rest.find('[') {
            match rest[open..].find("](").map(|m| open + m) {
                Some(middle) if rest[middle..].contains(')') => {
                    let close = middle + rest[middle..].find(')').unwrap();
                    plain.push_str(&rest[..open]);
                    plain.push_str(&rest[open + 1..middle]);
                    rest = &rest[close + 1..];
                }
                _ => break,
            }
        }
        plain.push_str(rest);
        let slug: String = plain
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                '-' | '_' => Some(c),
                c if c.is_alphanumeric() => Some(c),
                _ => None,
            })
            .flat_map(char::to_lowercase)
            .collect();
        let count = seen.entry(slug.clone()).or_default();
        anchors.push(if *count == 0 {
            slug
        } else {
            format!("{slug}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// What is wrong with `target`, a link of `file`: nothing (`None`) for a link off the repository.
fn dead(file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    if target.is_empty() {
        return Some("an empty link".into());
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let linked = if path.is_empty() {
        file.to_path_buf()
    } else if path.starts_with('/') {
        return Some(
            "an absolute path (GitHub reads it from the repository's root, mdbook from the book's)"
                .into(),
        );
    } else {
        file.parent().unwrap().join(path)
    };
    if !linked.exists() {
        return Some(format!("no file {}", linked.display()));
    }
    let linked = linked.canonicalize().unwrap();
    if !linked.starts_with(root()) {
        return Some(format!("{} is outside the repository", linked.display()));
    }
    if !anchor.is_empty() && linked.extension().is_some_and(|e| e == "md") {
        let anchors = anchors(&read(&linked));
        if !anchors.iter().any(|a| a == anchor) {
            return Some(format!(
                "no heading `#{anchor}` in {} (its headings: {anchors:?})",
                linked.display()
            ));
        }
    }
    None
}

#[test]
fn every_relative_link_reaches_a_file_and_heading_that_are_there() {
    let mut files = vec![root().join("README.md")];
    files.extend(markdown_in(&root().join("docs")));
    files.extend(markdown_in(&book().join("src")));
    let mut checked = 0;
    let mut dead_links = Vec::new();
    for file in &files {
        for (line, target) in links(&read(file)) {
            checked += 1;
            if let Some(why) = dead(file, &target) {
                let shown = file.strip_prefix(root()).unwrap_or(file);
                dead_links.push(format!("{}:{line}: ({target}): {why}", shown.display()));
            }
        }
    }
    assert!(
        dead_links.is_empty(),
        "dead links:\n{}",
        dead_links.join("\n")
    );
    assert!(checked > 50, "only {checked} links found");
}

/// The book's source is the whole of `docs/` (`book.toml`'s `src`): the chapters in
/// `book/src/`, the reference notes beside `SUMMARY.md`, so links between them work in the built
/// book as in the repository.
fn summary() -> String {
    read(&root().join("docs/SUMMARY.md"))
}

#[test]
fn every_chapter_is_in_the_summary_and_compiled() {
    let summary = summary();
    let lib = read(&book().join("lib.rs"));
    let chapters = chapters();
    assert!(chapters.len() > 10, "{chapters:?}");
    for chapter in &chapters {
        assert!(
            summary.contains(&format!("](book/src/{chapter})")),
            "docs/SUMMARY.md does not list {chapter}"
        );
        assert!(
            lib.contains(&format!(
                "#[doc = include_str!(\"src/{chapter}\")]\npub mod "
            )),
            "lib.rs does not compile {chapter}'s examples: add its module"
        );
    }
    // And nothing listed that is not a chapter or a note (mdbook would refuse it too:
    // create-missing).
    let notes = notes();
    for (_, target) in links(&summary) {
        let listed = match target.strip_prefix("book/src/") {
            Some(chapter) => chapters.iter().any(|c| c == chapter),
            None => notes.contains(&target),
        };
        assert!(listed, "SUMMARY.md lists {target}");
    }
}

/// The reference notes: every `.md` of `docs/` but its index and the summary.
fn notes() -> Vec<String> {
    markdown_in(&root().join("docs"))
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "README.md" && name != "SUMMARY.md")
        .collect()
}

#[test]
fn every_reference_note_is_in_the_book() {
    let summary = summary();
    let notes = notes();
    assert!(notes.len() > 10, "{notes:?}");
    for note in notes {
        assert!(
            summary.contains(&format!("]({note})")),
            "docs/SUMMARY.md does not list the note {note}: the built book would leave it out, \
             and its links to it dead"
        );
    }
}

/// A Rust block that is not compiled says, in a comment of its chapter, what tests it instead.
#[test]
fn an_ignored_rust_block_says_what_tests_it() {
    for chapter in chapters() {
        let text = read(&book().join("src").join(&chapter));
        if text.contains("```rust,ignore") {
            assert!(
                text.split("<!--").skip(1).any(|comment| comment
                    .split("-->")
                    .next()
                    .unwrap()
                    .contains("rust,ignore")),
                "{chapter} has `rust,ignore` blocks and no `<!-- ... -->` saying what tests them"
            );
        }
    }
}

#[test]
fn the_link_reader_reads_what_github_does() {
    let text = "# A `robot` (heading)\n## A `robot` (heading)\n[a](b.md#c) `[x](y)` ``[`p`](q)``\n\
                ```sh\n[z](w)\n```\n![pic](p.png \"title\") [the\nbus](#bus) <!-- [h](i) -->\n";
    assert_eq!(
        links(text),
        [
            (3, "b.md#c".to_string()),
            (7, "p.png".to_string()),
            (8, "#bus".to_string())
        ]
    );
    assert_eq!(anchors(text), ["a-robot-heading", "a-robot-heading-1"]);
    assert_eq!(
        anchors("## 8. Parameters (types 17/18)\n### [Link](x.md) §9, per-model\n"),
        ["8-parameters-types-1718", "link-9-per-model"]
    );
}
