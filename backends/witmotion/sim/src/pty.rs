//! The pseudo-terminal pair: the device holds the master, the host opens the slave's path
//! (`/dev/pts/N`) as it would `/dev/ttyUSB0`.
//!
//! A pty's kernel does not enforce a baud rate (termios accepts 460800 and carries bytes at any
//! speed), but the host's setting is readable from the master
//! (`tcgetattr` on a master reads its slave's termios, Linux's `tty_mode_ioctl`), so the device
//! can garble what it sends when the host listens at another rate, as a UART would.

use std::ffi::CStr;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// The master side, non-blocking, and the slave's path. The slave stays open here too, so the
/// pair lives while the host closes and reopens its side.
#[derive(Debug)]
pub(crate) struct Pty {
    master: Option<OwnedFd>,
    _slave: OwnedFd,
    path: String,
}

impl Pty {
    /// A new pair in raw mode (no echo, no line editing: bytes pass unchanged).
    pub(crate) fn open() -> io::Result<Pty> {
        let mut master = -1;
        let mut slave = -1;
        let mut name = [0 as libc::c_char; 128];
        // SAFETY: openpty writes two descriptors and a NUL-terminated name into the buffers
        // given; the name buffer is larger than any pts path; null termios and winsize are
        // allowed.
        let result = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                name.as_mut_ptr(),
                // `*mut` for macOS's signature; Linux's takes `*const`, which it coerces to.
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        if result != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: openpty succeeded, so both are open descriptors that nothing else owns.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        // SAFETY: openpty NUL-terminated the name within the buffer.
        let path = unsafe { CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        raw(&slave)?;
        set_nonblocking(&master)?;
        Ok(Pty {
            master: Some(master),
            _slave: slave,
            path,
        })
    }

    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    fn master(&self) -> io::Result<i32> {
        self.master
            .as_ref()
            .map(AsRawFd::as_raw_fd)
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotConnected, "unplugged"))
    }

    /// Closes the master: the host's reads fail, as when a USB adapter is pulled out.
    pub(crate) fn unplug(&mut self) {
        self.master = None;
    }

    /// Writes what the master takes now; bytes the host's full input cannot take are lost,
    /// as a UART's are when nobody reads.
    pub(crate) fn send(&self, bytes: &[u8]) -> io::Result<()> {
        let fd = self.master()?;
        let mut rest = bytes;
        while !rest.is_empty() {
            // SAFETY: `rest` is a valid buffer of `rest.len()` bytes; `fd` is open.
            let written = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
            if written < 0 {
                let error = io::Error::last_os_error();
                return match error.kind() {
                    io::ErrorKind::WouldBlock => Ok(()),
                    io::ErrorKind::Interrupted => continue,
                    _ => Err(error),
                };
            }
            rest = &rest[written as usize..];
        }
        Ok(())
    }

    /// Waits up to `timeout_ms` for the host's bytes, then reads what there is (none on a
    /// timeout).
    pub(crate) fn receive(&self, buffer: &mut [u8], timeout_ms: i32) -> io::Result<usize> {
        let fd = self.master()?;
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut poll, 1, timeout_ms.max(0)) };
        if ready <= 0 {
            return Ok(0); // a timeout, or a signal
        }
        if poll.revents & libc::POLLIN == 0 {
            // Nothing to read but an event poll reports at once: wait out the time anyway.
            std::thread::sleep(std::time::Duration::from_millis(timeout_ms.max(0) as u64));
            return Ok(0);
        }
        // SAFETY: `buffer` is valid for `buffer.len()` bytes; `fd` is open.
        let read = unsafe { libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len()) };
        if read < 0 {
            let error = io::Error::last_os_error();
            return match error.kind() {
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(0),
                _ if error.raw_os_error() == Some(libc::EIO) => Ok(0),
                _ => Err(error),
            };
        }
        Ok(read as usize)
    }

    /// The baud rate the host set on its side: `termios2`, which holds any rate (the
    /// `serialport` crate sets its rate as `BOTHER` with the number in `c_ospeed`).
    #[cfg(target_os = "linux")]
    pub(crate) fn host_baud(&self) -> Option<u32> {
        let fd = self.master().ok()?;
        // SAFETY: termios2 is plain data; the ioctl fills it on success.
        let mut termios: libc::termios2 = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open; TCGETS2 writes one termios2 into the valid pointer.
        if unsafe { libc::ioctl(fd, libc::TCGETS2, &mut termios) } != 0 {
            return None;
        }
        match termios.c_cflag & libc::CBAUD {
            libc::BOTHER => Some(termios.c_ospeed),
            code => speed_to_baud(code),
        }
    }
}

/// The baud rate the host set on its side. Outside Linux a `speed_t` is the rate itself
/// (POSIX leaves its values open; macOS and the BSDs use the number).
#[cfg(not(target_os = "linux"))]
impl Pty {
    pub(crate) fn host_baud(&self) -> Option<u32> {
        let fd = self.master().ok()?;
        // SAFETY: termios is plain data; tcgetattr fills it on success.
        let mut termios: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: `fd` is open; tcgetattr writes one termios into the valid pointer.
        if unsafe { libc::tcgetattr(fd, &mut termios) } != 0 {
            return None;
        }
        // SAFETY: reads the speed out of the termios tcgetattr filled.
        u32::try_from(unsafe { libc::cfgetospeed(&termios) }).ok()
    }
}

#[cfg(target_os = "linux")]
fn speed_to_baud(speed: libc::speed_t) -> Option<u32> {
    Some(match speed {
        libc::B4800 => 4800,
        libc::B9600 => 9600,
        libc::B19200 => 19_200,
        libc::B38400 => 38_400,
        libc::B57600 => 57_600,
        libc::B115200 => 115_200,
        libc::B230400 => 230_400,
        libc::B460800 => 460_800,
        libc::B921600 => 921_600,
        _ => return None,
    })
}

fn raw(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: termios is plain data; tcgetattr fills it on success.
    let mut termios: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: `fd` is open; the pointers are valid.
    unsafe {
        if libc::tcgetattr(fd.as_raw_fd(), &mut termios) != 0 {
            return Err(io::Error::last_os_error());
        }
        libc::cfmakeraw(&mut termios);
        if libc::tcsetattr(fd.as_raw_fd(), libc::TCSANOW, &termios) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: F_GETFL and F_SETFL on an open descriptor.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
