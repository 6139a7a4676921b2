//! The commands the README, the book (docs/book/) and the sample configurations tell a user to
//! type work as written
//! from a fresh clone: `robot` is reached through `cargo run -p robots --` (it is not on PATH),
//! nothing runs a binary under `target/` that no shown command built, and every `robot` command
//! line parses.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::{Command, Output};

use robots::checked_in::workspace_root;

fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("run robot")
}

fn readme() -> String {
    std::fs::read_to_string(workspace_root().join("README.md")).unwrap()
}

/// A chapter of the book, `docs/book/src/<name>.md`.
fn chapter(name: &str) -> String {
    std::fs::read_to_string(workspace_root().join(format!("docs/book/src/{name}.md"))).unwrap()
}

/// The README and every chapter of the book, one after the other.
fn readme_and_book() -> String {
    let mut text = readme();
    let mut chapters: Vec<_> = std::fs::read_dir(workspace_root().join("docs/book/src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    chapters.sort();
    assert!(chapters.len() > 10, "{chapters:?}");
    for path in chapters {
        text.push('\n');
        text.push_str(&std::fs::read_to_string(path).unwrap());
    }
    text
}

/// The lines of the `sh` code blocks, comments removed.
fn shell_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(fence) = trimmed.strip_prefix("```") {
            in_sh = !in_sh && fence == "sh";
            continue;
        }
        if in_sh {
            let command = trimmed.split(" #").next().unwrap_or_default().trim();
            if !command.is_empty() && !command.starts_with('#') {
                lines.push(command.to_string());
            }
        }
    }
    lines
}

/// The `robot` arguments of a `cargo run ... -p robots ... -- ARGS` line.
fn robot_args(line: &str) -> Option<Vec<&str>> {
    let (cargo, args) = line.split_once(" -- ")?;
    (cargo.starts_with("cargo run ") && cargo.contains("-p robots"))
        .then(|| args.split_whitespace().collect())
}

#[test]
fn every_sample_config_says_how_to_check_it_with_a_command_that_works() {
    let dir = workspace_root().join("robots").join("configs");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("# Check with `"))
            .unwrap_or_else(|| panic!("{name} has no `# Check with` line"));
        let command = line
            .trim_start_matches("# Check with `")
            .trim_end_matches("`.");
        let own = format!("robots/configs/{name}");
        assert_eq!(
            command,
            format!("cargo run -p robots -- check {own}"),
            "{name}: `robot` is not on PATH in a fresh clone"
        );
        let args = robot_args(command).unwrap();
        let output = robot(&args);
        assert!(
            output.status.success(),
            "{name}: `{command}` fails: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} sample configs");
}

#[test]
fn every_robot_command_in_the_readme_and_the_book_parses() {
    let lines = shell_lines(&readme_and_book());
    let commands: Vec<(&String, Vec<&str>)> = lines
        .iter()
        .filter_map(|line| Some((line, robot_args(line)?)))
        .collect();
    assert!(commands.len() >= 6, "{lines:?}");
    for (line, mut args) in commands {
        // `--help` after the arguments: clap still checks every one before printing the help,
        // and nothing runs.
        args.push("--help");
        let output = robot(&args);
        assert!(
            output.status.success(),
            "README or book: `{line}` does not parse: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn no_readme_or_book_command_runs_a_binary_it_did_not_build() {
    // A `target/release/robot` line fails in a fresh clone, or runs a stale build; `cargo run`
    // builds first.
    let readme = readme_and_book();
    let spans = readme.split('`').skip(1).step_by(2);
    for command in shell_lines(&readme).iter().map(String::as_str).chain(spans) {
        // A path such as `target/debug/` is fine; a program in it is not.
        let program = ["target/debug/", "target/release/"]
            .iter()
            .find_map(|dir| command.strip_prefix(dir))
            .is_some_and(|rest| !rest.is_empty());
        assert!(
            !program,
            "README or book: `{command}` needs a build first; say `cargo run ...`"
        );
    }
}

#[test]
fn the_readme_says_which_build_it_measures_and_runs() {
    let readme = readme();
    let quick_start = readme
        .split("## Quick start")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap();
    assert!(
        quick_start.contains("`dev` profile") && quick_start.contains("release"),
        "{quick_start}"
    );
    // Exactly the two set-up commands.
    assert_eq!(
        shell_lines(quick_start),
        ["cargo run -p robots -- run", "scripts/test"]
    );
}

#[test]
fn the_books_own_robot_chapter_shows_the_example_crate_as_it_is() {
    // The chapter is followed by a newcomer with nothing else: every file it shows is the
    // example crate's file, verbatim (the one the test suite builds and runs), and it shows them
    // all.
    let section = chapter("your-own-robot");
    assert!(section.starts_with("# Your own robot\n"), "{section}");
    let example = workspace_root().join("examples").join("my_robot");
    let files = [
        ("Cargo.toml", "toml"),
        ("build.rs", "rust,ignore"),
        ("src/robot.rs", "rust,ignore"),
        ("src/controller.rs", "rust,ignore"),
        ("src/lib.rs", "rust,ignore"),
        ("src/main.rs", "rust,ignore"),
        ("tests/mock.rs", "rust,ignore"),
        ("src/strider.rs", "rust,ignore"),
        ("src/crouch.rs", "rust,ignore"),
    ];
    for (file, fence) in files {
        let mut text = std::fs::read_to_string(example.join(file)).unwrap();
        if file == "Cargo.toml" {
            // The example sits inside the clone; a user's crate sits beside it.
            text = text.replace("\"../../", "\"../robot-rs/");
        }
        assert!(
            section.contains(&format!("```{fence}\n{text}```")),
            "the book's `Your own robot` does not show examples/my_robot/{file} as it is"
        );
        assert!(
            section.contains(&format!("`{file}`")),
            "{file} is not named"
        );
    }
    let shown =
        section.matches("\n```rust,ignore\n").count() + section.matches("\n```toml\n").count();
    assert_eq!(
        shown,
        files.len(),
        "a block that is not one of the example's files"
    );
}
