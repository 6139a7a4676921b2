//! `/imu/data` as imu_sensor_broadcaster publishes it: the IMU's ten state interfaces in a
//! `sensor_msgs/Imu`, `frame_id` the link the IMU is fixed to, and the covariances the
//! broadcaster publishes unless configured (its `static_covariance_*` parameters: all zero,
//! "unknown" in REP-145's terms, not −1 "no estimate": the estimates are there).

use robot_runtime::Robot;
use robot_runtime::controller_plan;
use robot_runtime::model::SensorKind;
use robot_runtime::typed::Layout;
use ros2_msg::msg::{Header, Imu, Time};

/// One IMU of the robot, and where its values are in the state.
#[derive(Debug, Clone, PartialEq)]
pub struct ImuChannel {
    /// Its topic, relative to the namespace: `imu/data`, or `imu/<sensor>/data` when the robot
    /// has more than one.
    pub topic: String,
    /// The sensor's name in the definition.
    pub sensor: String,
    /// The broadcaster publishing it, whose node the topic belongs to (`imu_sensor_broadcaster`).
    pub broadcaster: String,
    /// The link it is fixed to: the message's `frame_id`.
    pub frame_id: String,
    /// The first of its ten slots: orientation x y z w, angular velocity x y z, linear
    /// acceleration x y z ([`robot_runtime::interface::IMU_STATE_INTERFACES`]'s order).
    first_slot: usize,
}

impl ImuChannel {
    /// Every IMU of `robot` whose state is laid out as `state`.
    pub fn of(robot: &Robot, state: &Layout) -> Vec<ImuChannel> {
        let imus = || robot.sensors_of(SensorKind::Imu);
        let several = imus().count() > 1;
        let broadcasters = controller_plan::broadcasters(robot);
        imus()
            .filter_map(|(index, sensor)| {
                Some(ImuChannel {
                    topic: if several {
                        format!("imu/{}/data", sensor.name)
                    } else {
                        "imu/data".to_string()
                    },
                    sensor: sensor.name.to_string(),
                    broadcaster: controller_plan::broadcaster_of(&broadcasters, &sensor.name)?
                        .to_string(),
                    frame_id: sensor.link.to_string(),
                    first_slot: state.sensor_slot(index)?,
                })
            })
            .collect()
    }

    /// A message with the frame set, to be filled.
    pub fn message(&self) -> Imu {
        Imu {
            header: Header {
                frame_id: self.frame_id.clone(),
                ..Header::default()
            },
            ..Imu::default()
        }
    }

    /// Fills `message` from `state` (NaN where no component drives the IMU). Allocates nothing.
    pub fn fill(&self, state: &[f64], stamp: &Time, message: &mut Imu) {
        let value = |i: usize| state.get(self.first_slot + i).copied().unwrap_or(f64::NAN);
        message.header.stamp = stamp.clone();
        message.orientation.x = value(0);
        message.orientation.y = value(1);
        message.orientation.z = value(2);
        message.orientation.w = value(3);
        message.angular_velocity.x = value(4);
        message.angular_velocity.y = value(5);
        message.angular_velocity.z = value(6);
        message.linear_acceleration.x = value(7);
        message.linear_acceleration.y = value(8);
        message.linear_acceleration.z = value(9);
    }
}
