//! `<sensor>_broadcaster/wrench` as force_torque_sensor_broadcaster publishes it: a force/torque
//! sensor's six state interfaces in a `geometry_msgs/WrenchStamped`, `frame_id` the sensor's
//! link. The topic is the broadcaster's `~/wrench`, under the node name `controllers.yaml` gives
//! the broadcaster.

use robot_runtime::Robot;
use robot_runtime::controller_plan;
use robot_runtime::model::SensorKind;
use robot_runtime::typed::Layout;
use ros2_msg::msg::{Header, Time, WrenchStamped};

/// One force/torque sensor of the robot, and where its values are in the state.
#[derive(Debug, Clone, PartialEq)]
pub struct WrenchChannel {
    /// Its topic, relative to the namespace: `<sensor>_broadcaster/wrench`.
    pub topic: String,
    /// The sensor's name in the definition.
    pub sensor: String,
    /// The broadcaster publishing it, whose node the topic belongs to
    /// (`<sensor>_broadcaster`).
    pub broadcaster: String,
    /// The link it is fixed to: the message's `frame_id`.
    pub frame_id: String,
    /// The first of its six slots: force x y z, torque x y z.
    first_slot: usize,
}

impl WrenchChannel {
    /// Every force/torque sensor of `robot` whose state is laid out as `state`.
    pub fn of(robot: &Robot, state: &Layout) -> Vec<WrenchChannel> {
        let broadcasters = controller_plan::broadcasters(robot);
        (robot.sensors_of(SensorKind::ForceTorque))
            .filter_map(|(index, sensor)| {
                let broadcaster = controller_plan::broadcaster_of(&broadcasters, &sensor.name)?;
                Some(WrenchChannel {
                    topic: format!("{broadcaster}/wrench"),
                    sensor: sensor.name.to_string(),
                    broadcaster: broadcaster.to_string(),
                    frame_id: sensor.link.to_string(),
                    first_slot: state.sensor_slot(index)?,
                })
            })
            .collect()
    }

    /// A message with the frame set, to be filled.
    pub fn message(&self) -> WrenchStamped {
        WrenchStamped {
            header: Header {
                frame_id: self.frame_id.clone(),
                ..Header::default()
            },
            ..WrenchStamped::default()
        }
    }

    /// Fills `message` from `state` (NaN where no component drives the sensor). Allocates
    /// nothing.
    pub fn fill(&self, state: &[f64], stamp: &Time, message: &mut WrenchStamped) {
        let value = |i: usize| state.get(self.first_slot + i).copied().unwrap_or(f64::NAN);
        message.header.stamp = stamp.clone();
        let wrench = &mut message.wrench;
        (wrench.force.x, wrench.force.y, wrench.force.z) = (value(0), value(1), value(2));
        (wrench.torque.x, wrench.torque.y, wrench.torque.z) = (value(3), value(4), value(5));
    }
}
