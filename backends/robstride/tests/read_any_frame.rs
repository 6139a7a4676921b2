//! Whatever arrives on the bus, the component's `read` never panics: a frame that is not the
//! protocol's is a typed `Bus` error naming the bus, a reply from a motor the bus does not have is
//! ignored, and a well-formed feedback is taken.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use embedded_can::Frame as _;
use proptest::prelude::*;
use robot_core::hardware::{Clock, Component, ErrorKind};
use robots::{LiteBiped, LiteBipedState};
use robstride_protocol::Frame;
use robstride_sim::SimBus;
use robstride_sim::robot::attach_actuators;

fn configured() -> (SimBus, RobstrideBus<LiteBiped>) {
    let sim = SimBus::new("left_leg");
    attach_actuators(LiteBiped::DESCRIPTION, "left_leg", None, &sim);
    let host = sim.clone();
    let mut bus =
        RobstrideBus::<LiteBiped>::new("left_leg", None, BusOptions::default(), move || {
            Ok(Box::new(host.host()) as Box<dyn Transport>)
        });
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
    (sim, bus)
}

const CLOCK: Clock = Clock {
    time: Duration::ZERO,
    period: Duration::from_millis(5),
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn any_frame_is_taken_ignored_or_a_typed_error(
        extended in any::<bool>(),
        id in any::<u32>(),
        data in any::<[u8; 8]>(),
        len in 0usize..=8,
    ) {
        let (sim, mut bus) = configured();
        let frame = if extended {
            Frame::new(embedded_can::ExtendedId::new(id & 0x1FFF_FFFF).unwrap(), &data[..len])
        } else {
            Frame::new(embedded_can::StandardId::new((id & 0x7FF) as u16).unwrap(), &data[..len])
        }
        .unwrap();
        sim.inject(frame);
        let mut state = LiteBipedState::default();
        if let Err(error) = bus.read(CLOCK, &mut state) {
            prop_assert!(
                matches!(error.kind(), ErrorKind::Bus | ErrorKind::DeviceFault),
                "{error}"
            );
            prop_assert!(error.message().contains("left_leg"), "{error}");
        }
    }
}
