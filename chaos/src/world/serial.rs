//! An IMU component's end of its device: the simulated firmware in process, on the world's clock.

use std::time::Duration;

use backend_witmotion::Link;

use super::World;

/// An IMU component's link: its device in process, on the world's clock.
pub(super) struct Serial {
    pub(super) imu: usize,
    pub(super) world: World,
}

impl Link for Serial {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        match self.world.lock().imus.get_mut(self.imu) {
            Some(device) => device.read(buffer),
            None => Ok(0),
        }
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self.world.lock().imus.get_mut(self.imu) {
            Some(device) => device.write(bytes),
            None => Ok(()),
        }
    }

    fn now(&self) -> Duration {
        self.world.now()
    }

    fn pause(&mut self, pause: Duration) {
        self.world.advance(pause);
    }
}
