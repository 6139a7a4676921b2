//! "Did you mean": the known name closest to a misspelt one, for every "unknown X" message, the
//! macro's (interfaces, models, fields) and the rules' (links, buses, joints) alike.

/// The candidate closest to `name`, if one is close enough to be a likely misspelling: equal up
/// to case, or within an edit distance (insertions, deletions, substitutions and swaps of two
/// neighbours) of a third of the name's length, at least 1, as rustc suggests names; and closer
/// than any other candidate.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&str> = candidates.into_iter().filter(|c| *c != name).collect();
    if let Some(same) = candidates.iter().find(|c| c.eq_ignore_ascii_case(name)) {
        return Some(same);
    }
    let limit = (name.chars().count() / 3).max(1);
    let scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|&(distance, _)| distance <= limit)
        .collect();
    let best = scored.iter().map(|&(distance, _)| distance).min()?;
    // Several names equally close (`RS07` is one edit from every model) suggest none of them.
    match scored
        .iter()
        .filter(|&&(distance, _)| distance == best)
        .collect::<Vec<_>>()[..]
    {
        [&(_, only)] => Some(only),
        _ => None,
    }
}

/// `"did you mean `x`? "`, or nothing, to go before the list of known names in a message.
pub fn did_you_mean_before<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    closest(name, candidates)
        .map(|s| format!("did you mean `{s}`? "))
        .unwrap_or_default()
}

/// `"; did you mean `x`?"`, or nothing, to end a message.
pub fn did_you_mean(suggestion: &Option<String>) -> String {
    match suggestion {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested() {
        let interfaces = ["position", "velocity", "effort", "stiffness", "damping"];
        assert_eq!(closest("veloctiy", interfaces), Some("velocity"));
        assert_eq!(closest("postion", interfaces), Some("position"));
        assert_eq!(closest("Effort", interfaces), Some("effort"));
        let models = ["RS00", "RS01", "RS02", "RS03", "RS04", "RS05", "RS06"];
        assert_eq!(closest("RS6", models), Some("RS06"));
        assert_eq!(closest("rs03", models), Some("RS03"));
    }

    #[test]
    fn far_names_are_not() {
        assert_eq!(closest("temperature", ["position", "velocity"]), None);
        assert_eq!(
            closest("RS07", ["RS00", "RS01"]),
            None,
            "a tie suggests nothing"
        );
        assert_eq!(closest("xyz", ["abc"]), None);
        assert_eq!(
            closest("arm", ["arm"]),
            None,
            "the name itself is no suggestion"
        );
    }
}
