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
//! `ROS_STATIC_PEERS` (addresses or host names separated by `;`): SPDP also goes by unicast to
//! each one's well-known discovery ports, as Fast DDS sends to an initial peer without a port,
//! so hosts whose network carries no multicast find each other. The vendored DDS stack reads
//! the variable itself where it starts its SPDP writer (`vendor/rustdds/PATCHED.md`, "Static
//! peers"), as Jazzy's RMWs take it from rcl; this module checks that every peer resolves, so a
//! typo is an error before the run instead of a warning in a log. With `OFF`, Jazzy contacts
//! the static peers alone; this stack cannot announce itself to them without also multicasting,
//! so that combination is refused, saying why.

use std::net::{IpAddr, Ipv4Addr, ToSocketAddrs};

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
    /// `ROS_STATIC_PEERS`, as given (each one resolves): reported; the DDS stack reads the
    /// variable itself (see the module docs).
    pub static_peers: Vec<String>,
}

impl Discovery {
    /// From `ROS_AUTOMATIC_DISCOVERY_RANGE` and `ROS_STATIC_PEERS`; an unknown range, a peer
    /// that does not resolve, or static peers with `OFF` are an error naming the variable.
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
        let static_peers: Vec<String> = static_peers
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        for peer in &static_peers {
            if let Err(e) = (peer.as_str(), 0).to_socket_addrs() {
                return Err(format!(
                    "ROS_STATIC_PEERS names `{peer}`, which does not resolve to an address: {e}"
                ));
            }
        }
        if range == DiscoveryRange::Off && !static_peers.is_empty() {
            return Err(
                "ROS_STATIC_PEERS with ROS_AUTOMATIC_DISCOVERY_RANGE=OFF asks for the static \
                 peers alone, which this DDS stack cannot do (it announces itself by multicast \
                 wherever it announces itself at all): unset ROS_AUTOMATIC_DISCOVERY_RANGE, or \
                 set it to SUBNET"
                    .to_string(),
            );
        }
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
            Discovery::from_values("SUBNET", "10.0.0.2; localhost;").unwrap(),
            Discovery {
                range: DiscoveryRange::Subnet,
                static_peers: vec!["10.0.0.2".into(), "localhost".into()],
            }
        );
        assert!(
            Discovery::from_values("", "10.0.0.2;no-such-host.invalid")
                .unwrap_err()
                .contains("`no-such-host.invalid`, which does not resolve")
        );
        assert!(
            Discovery::from_values("OFF", "10.0.0.2")
                .unwrap_err()
                .contains("cannot do")
        );
        assert!(
            Discovery::from_values("LAN", "")
                .unwrap_err()
                .contains("not one of SUBNET, LOCALHOST, OFF or SYSTEM_DEFAULT")
        );
    }
}
