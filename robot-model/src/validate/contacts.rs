//! Rules of the contacts a definition allows (`allow_contact name { links: [a, b] }`): each
//! names two links of the robot, different ones, and no two share a name (the MJCF's
//! `<exclude>` carries it).

use std::collections::HashMap;

use super::problem::{AllowedContactField, ProblemKind, Site};
use super::{Problems, suggest};
use crate::model::Robot;

pub(super) fn allowed_contacts(robot: &Robot, out: &mut Problems) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (index, contact) in robot.allowed_contacts.iter().enumerate() {
        let at = |field| Site::AllowedContact(index, field);
        match first.get(contact.name.as_ref()) {
            Some(&earlier) => out.push_related(
                at(AllowedContactField::Name),
                ProblemKind::Duplicate {
                    what: "allowed contact",
                    name: contact.name.to_string(),
                },
                Site::AllowedContact(earlier, AllowedContactField::Name),
                "first defined here",
            ),
            None => {
                first.insert(contact.name.as_ref(), index);
            }
        }
        for (i, link) in contact.links.iter().enumerate() {
            if robot.link(link).is_none() {
                out.push(
                    at(AllowedContactField::Link(i)),
                    ProblemKind::UnknownContactLink {
                        contact: contact.name.to_string(),
                        link: link.to_string(),
                        suggestion: suggest::closest(link, robot.links.iter().map(|l| &*l.name))
                            .map(str::to_string),
                    },
                );
            }
        }
        if contact.links[0] == contact.links[1] {
            out.push(
                at(AllowedContactField::Link(1)),
                ProblemKind::ContactWithItself {
                    contact: contact.name.to_string(),
                    link: contact.links[1].to_string(),
                },
            );
        }
    }
}
