//! The hardware component of one IMU: the real path's `type="sensor"` block (`LiteBipedIMU`).
//!
//! * `on_init` checks the definition: the sensor is an IMU whose every state interface this
//!   device fills, on a link whose mounting the definition gives ([`crate::mounting`]);
//! * `on_configure` opens the port ([`crate::serial`]), starts the reader thread
//!   ([`crate::reader`]), writes the output content and rate when asked to
//!   ([`ImuOptions::configure_device`]), and confirms that frames of every needed kind arrive at
//!   the expected rate, naming what is missing;
//! * `read` copies the newest complete sample into the IMU's state slots, turned into the body's
//!   axes: a few atomic loads, no system call, no lock, no allocation. A sample older than
//!   [`ImuOptions::max_age`] is an [`ErrorKind::Timeout`], as a missing motor reply is, and the
//!   loop switches everything off; a reader that ended (the port closed, `EIO`, corruption beyond
//!   the bound, a panic) is an [`ErrorKind::Bus`] error saying why;
//! * `on_activate` refuses a stale IMU (nothing is switched on blind); `on_deactivate` has no
//!   torque to switch off and keeps the reader, since an inactive component is still read;
//! * `on_cleanup`, `on_shutdown`, `on_error` and dropping the component stop the reader thread
//!   and join it, then close the port.

use std::sync::atomic::Ordering;
use std::time::Duration;

use robot_runtime::Values;
use robot_runtime::hardware::{
    Claims, Clock, Component, Counters, ErrorKind, HardwareError, Identity,
};
use robot_runtime::interface::IMU_STATE_INTERFACES;
use robot_runtime::model::SensorKind;
use robot_runtime::typed::RobotTypes;
use witmotion_protocol::{Command, FrameKind, OutputContent};

use crate::confirm;
use crate::confirm::Unconfirmed;
use crate::handoff::Sample;
use crate::link::Link;
use crate::mounting::{Mounting, MountingError, Rotation};
use crate::options::ImuOptions;
use crate::port::Port;
use crate::reader::{Reader, slot};
use crate::serial;

/// Where the device is, found when the component is configured: a serial port's path, and what
/// must live as long as the port is open (a simulated device), dropped after the reader stops.
pub struct Device {
    /// The port's path.
    pub path: String,
    /// Kept alive while the port is open.
    pub keep_alive: Option<Box<dyn Send>>,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Why a device could not be found or made (a pseudo-terminal refused, a simulated setting the
/// device has not).
pub type LocateError = Box<dyn std::error::Error + Send + Sync>;

/// How the device is found at each configure.
enum Locate {
    /// A serial port's path.
    Device(Box<dyn FnMut() -> Result<Device, LocateError> + Send>),
    /// A link read on the control thread ([`crate::link`]).
    Link(Box<dyn FnMut() -> Result<Box<dyn Link>, LocateError> + Send>),
}

/// Why the definition's sensor cannot be this component's IMU.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SensorError {
    /// The robot has no sensor of that name.
    #[error("{robot} has no sensor `{sensor}`")]
    Unknown {
        /// The robot.
        robot: String,
        /// The sensor asked for.
        sensor: String,
    },
    /// The sensor has no IMU state in the robot's state struct.
    #[error("`{sensor}` has no IMU state in {robot}")]
    NoImuState {
        /// The sensor.
        sensor: String,
        /// The robot.
        robot: String,
    },
    /// Its link gives no mounting.
    #[error(transparent)]
    Mounting(#[from] MountingError),
}

/// The component of one WitMotion-protocol IMU of robot `R`.
pub struct WitmotionImu<R: RobotTypes> {
    identity: Identity,
    sensor: String,
    options: ImuOptions,
    /// The first of the IMU's ten state slots, or why there is none.
    slot: Result<usize, SensorError>,
    mounting: Result<Mounting, SensorError>,
    locate: Locate,
    open: Option<Open>,
    /// Frames counted when the last reader stopped, for the run's statistics.
    counted: [u64; 3],
    _robot: std::marker::PhantomData<R>,
}

/// An open device, and what must live as long as it is open.
struct Open {
    port: Port,
    _device: Option<Device>,
}

impl<R: RobotTypes> std::fmt::Debug for WitmotionImu<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.identity
            .debug(f, "WitmotionImu")
            .field("sensor", &self.sensor)
            .field("port", &self.options.port)
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> WitmotionImu<R> {
    /// The component of IMU `sensor` on the serial port `options.port`.
    pub fn new(sensor: &str, options: ImuOptions) -> WitmotionImu<R> {
        let path = options.port.clone();
        Self::with_device(sensor, options, move || {
            Ok(Device {
                path: path.clone(),
                keep_alive: None,
            })
        })
    }

    /// The component of IMU `sensor` on the port `locate` gives at each configure (a simulated
    /// device's pseudo-terminal, made then).
    pub fn with_device(
        sensor: &str,
        options: ImuOptions,
        locate: impl FnMut() -> Result<Device, LocateError> + Send + 'static,
    ) -> WitmotionImu<R> {
        Self::located(sensor, options, Locate::Device(Box::new(locate)))
    }

    /// The component of IMU `sensor` on the link `open` gives at each configure, read on the
    /// control thread on the link's clock ([`crate::link`]): a simulated device in process.
    pub fn with_link(
        sensor: &str,
        options: ImuOptions,
        open: impl FnMut() -> Result<Box<dyn Link>, LocateError> + Send + 'static,
    ) -> WitmotionImu<R> {
        Self::located(sensor, options, Locate::Link(Box::new(open)))
    }

    fn located(sensor: &str, options: ImuOptions, locate: Locate) -> WitmotionImu<R> {
        let robot = R::DESCRIPTION;
        let index = robot.sensors.iter().position(|s| s.name == sensor);
        let unknown = || SensorError::Unknown {
            robot: robot.name.to_string(),
            sensor: sensor.to_string(),
        };
        let mounting = match index {
            Some(i) => Mounting::of(robot, &robot.sensors[i].link).map_err(SensorError::from),
            None => Err(unknown()),
        };
        let slot = index
            .and_then(|i| R::STATE_LAYOUT.sensor_slot(i))
            .ok_or_else(|| SensorError::NoImuState {
                sensor: sensor.to_string(),
                robot: robot.name.to_string(),
            });
        let claims = Claims {
            joints: Vec::new(),
            sensors: index.into_iter().collect(),
        };
        WitmotionImu {
            identity: Identity::new(robot.sensor_block_name(sensor), claims),
            sensor: sensor.to_string(),
            options,
            slot,
            mounting,
            locate,
            open: None,
            counted: [0; 3],
            _robot: std::marker::PhantomData,
        }
    }

    /// Where the IMU sits: its body and the sensor frame's rotation in it.
    pub fn mounting(&self) -> Option<&Mounting> {
        self.mounting.as_ref().ok()
    }

    /// Stops and joins the reader, closes the port, drops the device.
    fn close(&mut self) {
        if let Some(mut open) = self.open.take() {
            open.port.stop();
            let shared = open.port.shared();
            self.counted[0] += shared
                .frames
                .iter()
                .map(|f| f.load(Ordering::Relaxed))
                .sum::<u64>();
            self.counted[1] += shared.checksum_failures.load(Ordering::Relaxed);
            self.counted[2] += shared.skipped_bytes.load(Ordering::Relaxed);
        }
    }

    /// Unlocks, writes and waits as WitMotion's SDK does (20 ms after each write).
    fn send(&mut self, commands: &[Command]) -> Result<(), HardwareError> {
        let port = self.options.port.clone();
        let Some(open) = &mut self.open else {
            return Err(self
                .identity
                .error(ErrorKind::Lifecycle, "the port is not open"));
        };
        for command in commands {
            let sent = open
                .port
                .write_all(&Command::Unlock.encode())
                .and_then(|()| open.port.write_all(&command.encode()));
            if let Err(error) = sent {
                let message = format!("writing to `{port}` failed");
                return Err(self
                    .identity
                    .error(ErrorKind::Bus, message)
                    .caused_by(error));
            }
            open.port.pause(Duration::from_millis(20));
        }
        Ok(())
    }

    /// The newest sample, or the error `read` returns: the reader's failure, no sample yet, or
    /// one older than the bound. Allocates only on the error paths.
    fn fresh(&mut self) -> Result<Sample, HardwareError> {
        if let Some(open) = &mut self.open {
            open.port.poll();
        }
        let Some(open) = &self.open else {
            return Err(self.identity.error(
                ErrorKind::Lifecycle,
                "the port is not open (configure first)",
            ));
        };
        let shared = open.port.shared();
        if let Some(why) = shared.failure() {
            return Err(self
                .identity
                .error(
                    ErrorKind::Bus,
                    format!("`{}` on `{}`", self.sensor, self.options.port),
                )
                .caused_by(why));
        }
        let now = open.port.now().as_nanos() as u64;
        let sample = shared.latest.load();
        let age = sample.map(|s| now.saturating_sub(s.arrived_ns));
        match age {
            Some(age) if age <= self.options.max_age.as_nanos() as u64 => {
                sample.ok_or_else(|| self.identity.error(ErrorKind::Other, "no sample"))
            }
            _ => Err(self.stale(age, now)),
        }
    }

    fn stale(&self, age: Option<u64>, now: u64) -> HardwareError {
        let Some(open) = &self.open else {
            return self
                .identity
                .error(ErrorKind::Lifecycle, "the port is not open");
        };
        let shared = open.port.shared();
        let needed = OutputContent::from_bits(shared.needed.load(Ordering::Relaxed));
        let last: Vec<String> = [
            FrameKind::Acceleration,
            FrameKind::AngularVelocity,
            FrameKind::Angle,
            FrameKind::Quaternion,
        ]
        .into_iter()
        .filter(|&k| needed.contains(k))
        .map(|k| match shared.last_ns[slot(k)].load(Ordering::Relaxed) {
            0 => format!("{} never", k.name()),
            at => format!(
                "{} {:.0} ms ago",
                k.name(),
                now.saturating_sub(at) as f64 / 1e6
            ),
        })
        .collect();
        let what = match age {
            Some(age) => format!("its newest sample is {:.0} ms old", age as f64 / 1e6),
            None => "no complete sample has arrived".to_string(),
        };
        self.identity.error(
            ErrorKind::Timeout,
            format!(
                "`{}` on `{}`: {what} (limit {} ms; last frames: {}): the IMU stopped \
                 streaming, or was unplugged",
                self.sensor,
                self.options.port,
                self.options.max_age.as_millis(),
                last.join(", ")
            ),
        )
    }
}

impl<R: RobotTypes> Drop for WitmotionImu<R> {
    fn drop(&mut self) {
        self.close();
    }
}

impl<R: RobotTypes> Component<R> for WitmotionImu<R> {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        let robot = R::DESCRIPTION;
        let Some(&index) = self.identity.claims().sensors.first() else {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!("{} has no sensor `{}`", robot.name, self.sensor),
            ));
        };
        let sensor = &robot.sensors[index];
        if !matches!(sensor.kind, SensorKind::Imu) {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!("`{}` is not an IMU", self.sensor),
            ));
        }
        // Every state interface an IMU has is one this device fills: orientation from its
        // quaternion (or angles), angular velocity, linear acceleration.
        let fills = |name: &str| {
            ["orientation.", "angular_velocity.", "linear_acceleration."]
                .iter()
                .any(|prefix| name.starts_with(prefix))
        };
        if let Some(name) = IMU_STATE_INTERFACES.iter().find(|n| !fills(n)) {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!(
                    "`{}`: interface `{name}` is not one a WitMotion IMU fills",
                    self.sensor
                ),
            ));
        }
        if let Some(why) = self.slot.as_ref().err().or(self.mounting.as_ref().err()) {
            return Err(self
                .identity
                .error(ErrorKind::Unsupported, format!("`{}`", self.sensor))
                .caused_by(why.clone()));
        }
        if self.options.output_rate().is_none() {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!(
                    "`{}`: a WitMotion IMU does not stream at {} Hz (it offers 1, 2, 5, 10, 20, \
                     50, 100, 125 on a WT931, and 200)",
                    self.sensor, self.options.rate_hz
                ),
            ));
        }
        if witmotion_protocol::BaudRate::from_bits_per_second(self.options.baud).is_none() {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!(
                    "`{}`: a WitMotion IMU does not run at {} baud",
                    self.sensor, self.options.baud
                ),
            ));
        }
        Ok(())
    }

    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.close();
        let no_device = |why| {
            self.identity
                .error(ErrorKind::Io, format!("`{}`: no device", self.sensor))
                .caused_by(why)
        };
        let open = match &mut self.locate {
            Locate::Device(locate) => {
                let device = locate().map_err(no_device)?;
                Open {
                    port: self.open_serial(&device.path)?,
                    _device: Some(device),
                }
            }
            Locate::Link(open) => Open {
                port: Port::link(
                    open().map_err(no_device)?,
                    self.options.port.clone(),
                    self.options.corruption,
                ),
                _device: None,
            },
        };
        self.open = Some(open);
        if let Err(error) = self.confirm() {
            self.close();
            return Err(error);
        }
        Ok(())
    }

    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.close();
        Ok(())
    }

    fn on_shutdown(
        &mut self,
        _previous: robot_runtime::hardware::Lifecycle,
    ) -> Result<(), HardwareError> {
        self.close();
        Ok(())
    }

    fn on_error(
        &mut self,
        _previous: robot_runtime::hardware::Lifecycle,
    ) -> Result<(), HardwareError> {
        self.close();
        Ok(())
    }

    fn on_activate(
        &mut self,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        self.fresh().map(|_| ())
    }

    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        Ok(())
    }

    fn read(&mut self, _clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        let sample = self.fresh()?;
        let (Ok(first), Ok(mounting)) = (&self.slot, &self.mounting) else {
            return Err(self.identity.error(ErrorKind::Lifecycle, "not initialised"));
        };
        let q = sample.orientation;
        let sensor = Rotation {
            x: f64::from(q.x),
            y: f64::from(q.y),
            z: f64::from(q.z),
            w: f64::from(q.w),
        };
        let body = mounting.body_orientation(sensor);
        let angular = mounting.to_body(sample.angular_velocity.map(f64::from));
        let linear = mounting.to_body(sample.acceleration.map(f64::from));
        let values = [
            body.x, body.y, body.z, body.w, angular[0], angular[1], angular[2], linear[0],
            linear[1], linear[2],
        ];
        let slots = state.as_mut_slice();
        match slots.get_mut(*first..*first + values.len()) {
            Some(out) => out.copy_from_slice(&values),
            None => {
                return Err(self
                    .identity
                    .error(ErrorKind::Lifecycle, "the IMU's state slots are missing"));
            }
        }
        Ok(())
    }

    fn write(&mut self, _clock: Clock, _command: &R::Command) -> Result<(), HardwareError> {
        Ok(())
    }

    fn counters(&self) -> Counters {
        let mut counted = self.counted;
        if let Some(open) = &self.open {
            let shared = open.port.shared();
            counted[0] += shared
                .frames
                .iter()
                .map(|f| f.load(Ordering::Relaxed))
                .sum::<u64>();
            counted[1] += shared.checksum_failures.load(Ordering::Relaxed);
            counted[2] += shared.skipped_bytes.load(Ordering::Relaxed);
        }
        Counters::from([
            ("frames", counted[0]),
            ("checksum failures", counted[1]),
            ("bytes skipped", counted[2]),
        ])
    }
}

impl<R: RobotTypes> WitmotionImu<R> {
    /// Opens serial port `path` and starts its reader thread.
    fn open_serial(&self, path: &str) -> Result<Port, HardwareError> {
        let opened = serial::open(path, self.options.baud).and_then(|reader_side| {
            let writer =
                reader_side
                    .try_clone_native()
                    .map_err(|cause| serial::SerialError::Other {
                        port: path.to_string(),
                        baud: self.options.baud,
                        cause,
                    })?;
            Ok((reader_side, writer))
        });
        let (reader_side, writer) = opened.map_err(|e| {
            self.identity
                .error(ErrorKind::Bus, format!("`{}`", self.sensor))
                .caused_by(e)
        })?;
        let epoch = std::time::Instant::now();
        let reader = Reader::spawn(
            reader_side,
            path.to_string(),
            epoch,
            self.options.corruption,
        )
        .map_err(|e| {
            self.identity
                .error(
                    ErrorKind::Io,
                    format!("cannot start the reader of `{path}`"),
                )
                .caused_by(e)
        })?;
        Ok(Port::Serial {
            reader,
            writer,
            epoch,
        })
    }

    /// Writes the settings when asked to, confirms the frames, and waits for the first sample.
    fn confirm(&mut self) -> Result<(), HardwareError> {
        if self.options.configure_device {
            let content = OutputContent::NONE
                .with(FrameKind::Acceleration)
                .with(FrameKind::AngularVelocity)
                .with(FrameKind::Quaternion);
            let Some(rate) = self.options.output_rate() else {
                return Err(self.identity.error(ErrorKind::Unsupported, "no such rate"));
            };
            self.send(&[
                Command::SetOutputContent(content),
                Command::SetOutputRate(rate),
            ])?;
        }
        let Some(open) = &mut self.open else {
            return Err(self
                .identity
                .error(ErrorKind::Lifecycle, "the port is not open"));
        };
        let needed =
            confirm::needed_kinds(&mut open.port, &self.options).map_err(|why| match why {
                Unconfirmed::Reader(failure) => self
                    .identity
                    .error(ErrorKind::Timeout, format!("`{}`", self.sensor))
                    .caused_by(failure),
                Unconfirmed::Frames(what) => self
                    .identity
                    .error(ErrorKind::Timeout, format!("`{}`: {what}", self.sensor)),
            })?;
        open.port
            .shared()
            .needed
            .store(needed.bits(), Ordering::Relaxed);
        // The first complete sample: a few periods at most.
        let deadline = open.port.now() + self.options.max_age.max(Duration::from_millis(200));
        while open.port.shared().latest.load().is_none() && open.port.now() < deadline {
            open.port.pause(Duration::from_millis(2));
        }
        self.fresh().map(|_| ())
    }
}
