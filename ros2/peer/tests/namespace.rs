//! A network namespace that cannot be made is a clear error, never a panic or a hang: here
//! because this thread gives up CAP_SYS_ADMIN first (capabilities are per thread, and the
//! threads it starts inherit them).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use ros2_peer::{HarnessError, in_namespace};

/// Drops CAP_SYS_ADMIN from this thread's effective and permitted sets (`capset(2)`).
fn drop_sys_admin() {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy, Default)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    const CAP_SYS_ADMIN: u32 = 21;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let mut data = [Data::default(); 2];
    // SAFETY: capget/capset with a v3 header and two data words, as capget(2) documents.
    unsafe {
        assert_eq!(
            libc::syscall(libc::SYS_capget, &mut header, data.as_mut_ptr()),
            0
        );
        data[0].effective &= !(1 << CAP_SYS_ADMIN);
        data[0].permitted &= !(1 << CAP_SYS_ADMIN);
        assert_eq!(libc::syscall(libc::SYS_capset, &header, data.as_ptr()), 0);
    }
}

#[test]
fn a_namespace_that_cannot_be_made_is_an_error_saying_why() {
    let outcome = std::thread::spawn(|| {
        drop_sys_admin();
        in_namespace(|| "ran")
    })
    .join()
    .unwrap();
    let error = outcome.unwrap_err();
    assert!(matches!(error, HarnessError::Namespace(_)), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with("cannot make a network namespace: unshare(CLONE_NEWNET) failed: "),
        "{error}"
    );
}
