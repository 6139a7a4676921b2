//! What the book (docs/book/) and the CHANGELOG state of the code, checked against the code.

use robot_core::RobstrideModel;

/// The book's table of the RobStride models' limits (its "Defining a robot"), from
/// `robot-actuator`'s own table, as the book must show it.
fn motor_table() -> String {
    let number = |x: f64| {
        let text = format!("{x}");
        text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
    };
    let mut table = String::from(
        "| model | torque ± (N·m) | speed ± (rad/s) | position window ± (rad) | Kp max (N·m/rad) | Kd max (N·m·s/rad) |\n|---|---|---|---|---|---|\n",
    );
    for model in RobstrideModel::ALL {
        let spec = model.spec();
        assert!((spec.position - 4.0 * std::f64::consts::PI).abs() < 1e-12);
        table.push_str(&format!(
            "| {} | {} | {} | 4π | {} | {} |\n",
            model.name(),
            number(spec.torque),
            number(spec.velocity),
            number(spec.stiffness),
            number(spec.damping)
        ));
    }
    table
}

#[test]
fn the_book_table_of_motor_models_is_the_codes() {
    let chapter = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/book/src/defining-a-robot.md"
    ))
    .expect("the book's Defining a robot");
    let marker =
        "<!-- motor models: checked against robot-actuator's table by tests/tests/readme.rs -->\n";
    let start = chapter.find(marker).expect("the table's marker") + marker.len();
    let end = chapter[start..]
        .find("\n\n")
        .map_or(chapter.len(), |e| start + e + 1);
    let expected = motor_table();
    assert_eq!(
        &chapter[start..end],
        expected,
        "the book's table of motor models differs from the code's; it should read:\n{expected}"
    );
}

#[test]
fn the_changelog_has_a_section_for_this_version_under_unreleased() {
    let changelog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../CHANGELOG.md"))
            .expect("CHANGELOG.md");
    let version = env!("CARGO_PKG_VERSION");
    let sections: Vec<&str> = changelog
        .lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .collect();
    assert_eq!(
        sections.first().copied(),
        Some("Unreleased]"),
        "{sections:?}"
    );
    assert!(
        sections
            .get(1)
            .is_some_and(|s| s.starts_with(&format!("{version}] - "))),
        "CHANGELOG.md's newest version must be {version}, the workspace's: {sections:?}"
    );
}
