//! The shared UDP ports of a DDS domain (DDSI-RTPS 2.5, 9.6.2.3: PB 7400, DG 250, d0 0, d2 1)
//! checked before joining: the DDS stack binds them with `SO_REUSEADDR` and, when a socket that
//! does not share holds one, only logs a warning and goes on half-deaf (no multicast discovery).
//! A clear error is better.

use std::io;
use std::net::{Ipv4Addr, SocketAddrV4};

use socket2::{Domain, Socket, Type};

use crate::discovery::DiscoveryRange;
use crate::error::WireError;

/// The discovery and user-traffic multicast ports of a domain.
pub(crate) fn shared_ports(domain_id: u16) -> [(u16, &'static str); 2] {
    let base = 7400 + 250 * domain_id;
    [
        (base, "its discovery multicast port"),
        (base + 1, "its user-traffic multicast port"),
    ]
}

pub(crate) fn check_shared_ports(domain_id: u16) -> Result<(), WireError> {
    for (port, what) in shared_ports(domain_id) {
        bind_shared(port).map_err(|source| WireError::PortTaken {
            domain: domain_id,
            port,
            what,
            source,
        })?;
    }
    Ok(())
}

/// SPDP's multicast group (DDSI-RTPS 2.5, 9.6.1.4.1), where discovery goes.
const DISCOVERY_GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 0, 1);

/// Checks that discovery can reach anyone in `range`: a route to SPDP's multicast group or to
/// the loopback (where the well-known ports of this host's other participants are; a network
/// namespace with `lo` alone and no multicast route discovers the host's other processes that
/// way). Without either (no interface up at all, `lo` down) the DDS stack would start anyway
/// and publish to no one; this says why instead. Connecting a UDP socket only looks the route
/// up: nothing is sent.
pub(crate) fn check_discovery_route(
    domain_id: u16,
    range: DiscoveryRange,
) -> Result<(), WireError> {
    let [(port, _), _] = shared_ports(domain_id);
    let route = |to: Ipv4Addr| -> io::Result<()> {
        let socket = std::net::UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        socket.connect(SocketAddrV4::new(to, port))
    };
    let loopback = route(Ipv4Addr::LOCALHOST);
    let reachable = match range {
        DiscoveryRange::Localhost => loopback,
        _ => route(DISCOVERY_GROUP).or(loopback),
    };
    reachable.map_err(|source| WireError::NoRoute {
        domain: domain_id,
        source,
    })
}

/// Binds a UDP socket to `0.0.0.0:port` with `SO_REUSEADDR`, as the DDS stack will, and closes
/// it again.
fn bind_shared(port: u16) -> io::Result<()> {
    let socket = Socket::new(Domain::IPV4, Type::DGRAM, None)?;
    socket.set_reuse_address(true)?;
    socket.bind(&SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, port).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_follow_the_rtps_formula() {
        assert_eq!(shared_ports(0).map(|(p, _)| p), [7400, 7401]);
        assert_eq!(shared_ports(232).map(|(p, _)| p), [65400, 65401]);
    }
}
