//! Where discovery looks for other participants, as ROS 2 Jazzy's environment says:
//! `ROS_AUTOMATIC_DISCOVERY_RANGE` (`SUBNET`, the default; `LOCALHOST`; `OFF`;
//! `SYSTEM_DEFAULT`) and `ROS_STATIC_PEERS`.
//!
//! * `SUBNET` and `SYSTEM_DEFAULT`: SPDP to the multicast group on every interface, and by
//!   unicast to the well-known ports of the first participants on 127.0.0.1, so that the
//!   processes of one host find each other even where multicast has no route (a laptop
//!   offline, a container or network namespace with `lo` alone), as Jazzy's default RMW does.
//! * `LOCALHOST`: this host only: multicast and the locators announced are the loopback's, and
//!   the unicast SPDP to 127.0.0.1 stays.
//! * `OFF`: no automatic discovery at all: no interface announced, no multicast, no localhost
//!   peers.
//!
//! `ROS_STATIC_PEERS` (addresses separated by `;`) is read and reported, but this DDS stack
//! (rustdds 0.15.1) has no initial-peers list to send SPDP to: a static peer must discover
//! this process (it announces on the range above). Said where the participant is joined.

use std::net::{IpAddr, Ipv4Addr};

/// `ROS_AUTOMATIC_DISCOVERY_RANGE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DiscoveryRange {
    /// Every interface, and the processes of this host (`SUBNET`, and `SYSTEM_DEFAULT`, which
    /// for this stack is the same).
    #[default]
    Subnet,
    /// This host only.
    Localhost,
    /// None.
    Off,
}

/// How a participant discovers others.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Discovery {
    /// The range.
    pub range: DiscoveryRange,
    /// `ROS_STATIC_PEERS`, as given: reported, not contacted (see the module docs).
    pub static_peers: Vec<String>,
}

impl Discovery {
    /// From `ROS_AUTOMATIC_DISCOVERY_RANGE` and `ROS_STATIC_PEERS`; an unknown range is an
    /// error naming the variable and what it may be.
    pub fn from_env() -> Result<Discovery, String> {
        let range = std::env::var("ROS_AUTOMATIC_DISCOVERY_RANGE").unwrap_or_default();
        let peers = std::env::var("ROS_STATIC_PEERS").unwrap_or_default();
        Discovery::from_values(&range, &peers)
    }

    /// From the variables' values (empty for unset).
    pub fn from_values(range: &str, static_peers: &str) -> Result<Discovery, String> {
        let range = match range.trim() {
            "" | "SUBNET" | "SYSTEM_DEFAULT" => DiscoveryRange::Subnet,
            "LOCALHOST" => DiscoveryRange::Localhost,
            "OFF" => DiscoveryRange::Off,
            other => {
                return Err(format!(
                    "ROS_AUTOMATIC_DISCOVERY_RANGE is `{other}`, not one of SUBNET, LOCALHOST, \
                     OFF or SYSTEM_DEFAULT"
                ));
            }
        };
        let static_peers = static_peers
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        Ok(Discovery {
            range,
            static_peers,
        })
    }

    /// The participant builder for this range.
    pub(crate) fn builder(&self, domain_id: u16) -> rustdds::DomainParticipantBuilder {
        let builder = rustdds::DomainParticipantBuilder::new(domain_id);
        match self.range {
            DiscoveryRange::Subnet => builder,
            DiscoveryRange::Localhost => {
                builder.with_only_networks([IpAddr::V4(Ipv4Addr::LOCALHOST)])
            }
            DiscoveryRange::Off => builder
                .with_only_networks(Vec::<IpAddr>::new())
                .same_host_loopback(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_read_as_jazzy_defines_them() {
        assert_eq!(
            Discovery::from_values("", "").unwrap(),
            Discovery::default()
        );
        assert_eq!(
            Discovery::from_values("SYSTEM_DEFAULT", "").unwrap().range,
            DiscoveryRange::Subnet
        );
        assert_eq!(
            Discovery::from_values("LOCALHOST", "").unwrap().range,
            DiscoveryRange::Localhost
        );
        assert_eq!(
            Discovery::from_values("OFF", "10.0.0.2; robot.local;").unwrap(),
            Discovery {
                range: DiscoveryRange::Off,
                static_peers: vec!["10.0.0.2".into(), "robot.local".into()],
            }
        );
        assert!(
            Discovery::from_values("LAN", "")
                .unwrap_err()
                .contains("not one of SUBNET, LOCALHOST, OFF or SYSTEM_DEFAULT")
        );
    }
}
