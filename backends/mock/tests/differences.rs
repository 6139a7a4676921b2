//! The crate docs' "Differences from `mock_components/GenericSystem`" table stays true to the
//! tests: it has the rows a user of GenericSystem must know, and every test it names exists.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The table's rows: `(difference, test cell)`.
fn rows() -> Vec<(String, String)> {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = read(&crate_dir.join("src/lib.rs"));
    let section = docs
        .split("//! # Differences from `mock_components/GenericSystem`")
        .nth(1)
        .expect("the crate docs have a differences section");
    section
        .lines()
        .map(|line| line.trim_start_matches("//!").trim())
        .take_while(|line| !line.starts_with('#'))
        .filter(|line| line.starts_with("| ") && !line.starts_with("| |"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            assert_eq!(cells.len(), 4, "a row has four cells: {line}");
            (cells[0].trim().to_string(), cells[3].trim().to_string())
        })
        .collect()
}

#[test]
fn the_table_has_the_rows_a_generic_system_user_needs() {
    let rows = rows();
    let names: Vec<&str> = rows.iter().map(|(name, _)| name.as_str()).collect();
    for needed in [
        "GPIO",
        "IMU at start",
        "reconfigure (`on_configure` again)",
        "`custom_interface_with_following_offset`",
        "chained mimics",
    ] {
        assert!(names.contains(&needed), "no row `{needed}` in {names:?}");
    }
}

#[test]
fn every_test_the_table_names_exists() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = String::new();
    for dir in ["tests", "src"] {
        for entry in std::fs::read_dir(crate_dir.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                sources.push_str(&read(&path));
            }
        }
    }
    let mut named = 0;
    for (row, cell) in rows() {
        // Test names are the backticked snake_case words of the cell.
        for name in cell.split('`').skip(1).step_by(2) {
            if name.contains("::") || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                continue;
            }
            assert!(
                sources.contains(&format!("fn {name}(")),
                "row `{row}` names test `{name}`, which does not exist"
            );
            named += 1;
        }
    }
    assert!(named >= 12, "only {named} tests named");
}
