//! The shared UDP ports of a DDS domain (DDSI-RTPS 2.5, 9.6.2.3: PB 7400, DG 250, d0 0, d2 1)
//! checked before joining: the DDS stack binds them with `SO_REUSEADDR` and, when a socket that
//! does not share holds one, only logs a warning and goes on half-deaf (no multicast discovery).
//! A clear error is better.

use std::io;

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

/// Binds a UDP socket to `0.0.0.0:port` with `SO_REUSEADDR`, as the DDS stack will, and closes
/// it again.
fn bind_shared(port: u16) -> io::Result<()> {
    // SAFETY: plain socket calls on a descriptor this function owns and closes on every path.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let one: libc::c_int = 1;
        let mut result = libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_REUSEADDR,
            (&one as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
        if result == 0 {
            let address = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: port.to_be(),
                sin_addr: libc::in_addr { s_addr: 0 },
                sin_zero: [0; 8],
            };
            result = libc::bind(
                fd,
                (&address as *const libc::sockaddr_in).cast(),
                std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
            );
        }
        let error = io::Error::last_os_error();
        libc::close(fd);
        if result == 0 { Ok(()) } else { Err(error) }
    }
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
