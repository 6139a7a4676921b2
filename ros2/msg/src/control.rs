//! `control_msgs` (Jazzy, `ros2/interfaces/control_msgs/`): the FollowJointTrajectory action
//! MoveIt executes through, its tolerances, and joint_trajectory_controller's state message.

use crate::action::{Action, Uuid};
use crate::message::RosType;
use crate::msg::{
    Duration, Header, JointTrajectory, JointTrajectoryPoint, MultiDOFJointTrajectory,
    MultiDOFJointTrajectoryPoint, Time,
};
use crate::{Field, FieldType, Service, TypeDescription, ros_message, ros_service};

ros_message! {
    /// `control_msgs/msg/JointTolerance`: how far a joint may be off (0: the controller's
    /// default; negative: no limit).
    pub struct JointTolerance in "control_msgs" {
        /// The joint.
        name: String,
        /// rad or m.
        position: f64,
        /// rad/s or m/s.
        velocity: f64,
        /// rad/s² or m/s².
        acceleration: f64,
    }
}

/// `control_msgs/msg/JointComponentTolerance`'s components.
pub mod component {
    /// Along x.
    pub const X_AXIS: u16 = 1;
    /// Along y.
    pub const Y_AXIS: u16 = 2;
    /// Along z.
    pub const Z_AXIS: u16 = 3;
    /// The translation's norm.
    pub const TRANSLATION: u16 = 4;
    /// The rotation's angle.
    pub const ROTATION: u16 = 5;
}

ros_message! {
    /// `control_msgs/msg/JointComponentTolerance`: a multi-DOF joint's tolerance.
    pub struct JointComponentTolerance in "control_msgs" {
        /// The joint.
        joint_name: String,
        /// One of [`component`].
        component: u16,
        /// Position.
        position: f64,
        /// Velocity.
        velocity: f64,
        /// Acceleration.
        acceleration: f64,
    }
}

/// `FollowJointTrajectory_Result`'s error codes.
pub mod error_code {
    /// Reached within the goal tolerances.
    pub const SUCCESSFUL: i32 = 0;
    /// Refused, or ended by another goal or a cancel.
    pub const INVALID_GOAL: i32 = -1;
    /// A joint the controller does not have, or one missing.
    pub const INVALID_JOINTS: i32 = -2;
    /// It ended before it arrived.
    pub const OLD_HEADER_TIMESTAMP: i32 = -3;
    /// A path tolerance was crossed.
    pub const PATH_TOLERANCE_VIOLATED: i32 = -4;
    /// Not within the goal tolerances in time.
    pub const GOAL_TOLERANCE_VIOLATED: i32 = -5;
}

ros_message! {
    /// `control_msgs/action/FollowJointTrajectory_Goal`.
    pub struct FollowJointTrajectoryGoal as ("FollowJointTrajectory_Goal") in "control_msgs" :: action {
        /// The trajectory.
        trajectory: JointTrajectory,
        /// Multi-DOF joints' (none here).
        multi_dof_trajectory: MultiDOFJointTrajectory,
        /// How far each joint may stray along the way.
        path_tolerance: Vec<JointTolerance>,
        /// Multi-DOF joints'.
        component_path_tolerance: Vec<JointComponentTolerance>,
        /// How close each joint must end.
        goal_tolerance: Vec<JointTolerance>,
        /// Multi-DOF joints'.
        component_goal_tolerance: Vec<JointComponentTolerance>,
        /// How late after the last point the goal tolerances may be met.
        goal_time_tolerance: Duration,
    }
}

ros_message! {
    /// `control_msgs/action/FollowJointTrajectory_Result`.
    pub struct FollowJointTrajectoryResult as ("FollowJointTrajectory_Result") in "control_msgs" :: action {
        /// One of [`error_code`].
        error_code: i32,
        /// What went wrong, in words.
        error_string: String,
    }
}

ros_message! {
    /// `control_msgs/action/FollowJointTrajectory_Feedback`.
    pub struct FollowJointTrajectoryFeedback as ("FollowJointTrajectory_Feedback") in "control_msgs" :: action {
        /// When.
        header: Header,
        /// The goal's joints, in its order.
        joint_names: Vec<String>,
        /// Where they are meant to be.
        desired: JointTrajectoryPoint,
        /// Where they are.
        actual: JointTrajectoryPoint,
        /// Desired − actual.
        error: JointTrajectoryPoint,
        /// Multi-DOF joints' (none here).
        multi_dof_joint_names: Vec<String>,
        /// Multi-DOF.
        multi_dof_desired: MultiDOFJointTrajectoryPoint,
        /// Multi-DOF.
        multi_dof_actual: MultiDOFJointTrajectoryPoint,
        /// Multi-DOF.
        multi_dof_error: MultiDOFJointTrajectoryPoint,
    }
}

ros_service! {
    /// `control_msgs/action/FollowJointTrajectory_SendGoal`: `_action/send_goal`.
    pub service FollowJointTrajectorySendGoal as ("FollowJointTrajectory_SendGoal") in "control_msgs" :: action {
        request FollowJointTrajectorySendGoalRequest {
            /// The goal's id, the client's choice.
            goal_id: Uuid,
            /// The goal.
            goal: FollowJointTrajectoryGoal,
        }
        response FollowJointTrajectorySendGoalResponse {
            /// Whether it was accepted.
            accepted: bool,
            /// When.
            stamp: Time,
        }
        event FollowJointTrajectorySendGoalEvent
    }
}

ros_service! {
    /// `control_msgs/action/FollowJointTrajectory_GetResult`: `_action/get_result`.
    pub service FollowJointTrajectoryGetResult as ("FollowJointTrajectory_GetResult") in "control_msgs" :: action {
        request FollowJointTrajectoryGetResultRequest {
            /// The goal.
            goal_id: Uuid,
        }
        response FollowJointTrajectoryGetResultResponse {
            /// Its final status (`action_msgs/GoalStatus`).
            status: i8,
            /// Its result.
            result: FollowJointTrajectoryResult,
        }
        event FollowJointTrajectoryGetResultEvent
    }
}

ros_message! {
    /// `control_msgs/action/FollowJointTrajectory_FeedbackMessage`: `_action/feedback`.
    pub struct FollowJointTrajectoryFeedbackMessage as ("FollowJointTrajectory_FeedbackMessage") in "control_msgs" :: action {
        /// The goal it is about.
        goal_id: Uuid,
        /// The feedback.
        feedback: FollowJointTrajectoryFeedback,
    }
}

/// A field of a type described by `description` (a service, in an action's description).
const fn nested(description: &'static TypeDescription) -> FieldType {
    FieldType {
        type_id: crate::message::type_id::NESTED_TYPE,
        capacity: 0,
        string_capacity: 0,
        nested: Some(description),
    }
}

/// `control_msgs/action/FollowJointTrajectory`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FollowJointTrajectory;

impl Action for FollowJointTrajectory {
    type Goal = FollowJointTrajectoryGoal;
    type Result = FollowJointTrajectoryResult;
    type Feedback = FollowJointTrajectoryFeedback;
    type SendGoal = FollowJointTrajectorySendGoal;
    type GetResult = FollowJointTrajectoryGetResult;
    type FeedbackMessage = FollowJointTrajectoryFeedbackMessage;

    fn goal_of(request: &FollowJointTrajectorySendGoalRequest) -> (&Uuid, &Self::Goal) {
        (&request.goal_id, &request.goal)
    }

    fn goal_response(accepted: bool, stamp: Time) -> FollowJointTrajectorySendGoalResponse {
        FollowJointTrajectorySendGoalResponse { accepted, stamp }
    }

    fn result_goal(request: &FollowJointTrajectoryGetResultRequest) -> &Uuid {
        &request.goal_id
    }

    fn result_response(
        status: i8,
        result: FollowJointTrajectoryResult,
    ) -> FollowJointTrajectoryGetResultResponse {
        FollowJointTrajectoryGetResultResponse { status, result }
    }

    fn feedback_message(
        goal_id: Uuid,
        feedback: FollowJointTrajectoryFeedback,
    ) -> FollowJointTrajectoryFeedbackMessage {
        FollowJointTrajectoryFeedbackMessage { goal_id, feedback }
    }

    fn goal_request(goal_id: Uuid, goal: Self::Goal) -> FollowJointTrajectorySendGoalRequest {
        FollowJointTrajectorySendGoalRequest { goal_id, goal }
    }

    fn accepted(response: &FollowJointTrajectorySendGoalResponse) -> bool {
        response.accepted
    }

    fn result_request(goal_id: Uuid) -> FollowJointTrajectoryGetResultRequest {
        FollowJointTrajectoryGetResultRequest { goal_id }
    }

    fn result_of(response: FollowJointTrajectoryGetResultResponse) -> (i8, Self::Result) {
        (response.status, response.result)
    }

    fn feedback_of(message: &FollowJointTrajectoryFeedbackMessage) -> (&Uuid, &Self::Feedback) {
        (&message.goal_id, &message.feedback)
    }
    const DESCRIPTION: &'static TypeDescription = &TypeDescription {
        package: "control_msgs",
        interface: "action",
        name: "FollowJointTrajectory",
        fields: &[
            Field {
                name: "goal",
                field_type: <FollowJointTrajectoryGoal as RosType>::FIELD_TYPE,
            },
            Field {
                name: "result",
                field_type: <FollowJointTrajectoryResult as RosType>::FIELD_TYPE,
            },
            Field {
                name: "feedback",
                field_type: <FollowJointTrajectoryFeedback as RosType>::FIELD_TYPE,
            },
            Field {
                name: "send_goal_service",
                field_type: nested(<FollowJointTrajectorySendGoal as Service>::DESCRIPTION),
            },
            Field {
                name: "get_result_service",
                field_type: nested(<FollowJointTrajectoryGetResult as Service>::DESCRIPTION),
            },
            Field {
                name: "feedback_message",
                field_type: <FollowJointTrajectoryFeedbackMessage as RosType>::FIELD_TYPE,
            },
        ],
    };
}

ros_message! {
    /// `control_msgs/msg/JointTrajectoryControllerState`: what joint_trajectory_controller
    /// publishes on `~/controller_state`.
    pub struct JointTrajectoryControllerState in "control_msgs" {
        /// When.
        header: Header,
        /// Its joints.
        joint_names: Vec<String>,
        /// Where they are meant to be.
        reference: JointTrajectoryPoint,
        /// Where they are.
        feedback: JointTrajectoryPoint,
        /// Reference − feedback.
        error: JointTrajectoryPoint,
        /// What it commands.
        output: JointTrajectoryPoint,
        /// Multi-DOF joints' (none here).
        multi_dof_joint_names: Vec<String>,
        /// Multi-DOF.
        multi_dof_reference: MultiDOFJointTrajectoryPoint,
        /// Multi-DOF.
        multi_dof_feedback: MultiDOFJointTrajectoryPoint,
        /// Multi-DOF.
        multi_dof_error: MultiDOFJointTrajectoryPoint,
        /// Multi-DOF.
        multi_dof_output: MultiDOFJointTrajectoryPoint,
        /// The speed scaling in effect (1: none).
        speed_scaling_factor: f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{CancelGoal, GoalInfo, GoalStatus, GoalStatusArray};
    use crate::{Message, TypeHash};

    /// From the type description files rosidl writes when it builds control_msgs from
    /// `ros2/interfaces/` and as action_msgs' ros-jazzy wheel ships them
    /// (`share/<package>/<interface>/<Name>.json`).
    #[test]
    fn the_action_types_hash_as_rosidl_builds_them() {
        let described: [(&TypeDescription, &str); 13] = [
            (
                FollowJointTrajectory::DESCRIPTION,
                "RIHS01_738ebcb7a2d7cfa42f9f1001cc99ce3a4383d1cfe508015d9be8485e4b1c66f6",
            ),
            (
                FollowJointTrajectoryGoal::DESCRIPTION,
                "RIHS01_8a9060704b269608f5a340934cc26e66869dd14bdac29e2e7fd9ec8b9882d205",
            ),
            (
                FollowJointTrajectoryResult::DESCRIPTION,
                "RIHS01_8002e99ed2c14c6faa522f2a93c26d744c5982f254f9e98ff9c6f19789bdb220",
            ),
            (
                FollowJointTrajectoryFeedback::DESCRIPTION,
                "RIHS01_3fd0aaecf71725121ae1ff7f01098a5e0da581e672be18a6b2c286cb43d96b49",
            ),
            (
                FollowJointTrajectorySendGoal::DESCRIPTION,
                "RIHS01_b13789dddc325a7a962825c45e28c77d37237ec129dd0c34dc5994562938c57f",
            ),
            (
                FollowJointTrajectoryGetResult::DESCRIPTION,
                "RIHS01_e3ceb38e3e1867c8dc0f46014df26e90eb93422f27e9e97f936e07f94be4bc8b",
            ),
            (
                FollowJointTrajectoryFeedbackMessage::DESCRIPTION,
                "RIHS01_80398fcb9674a79081a9906e2ccf0c804dd7cb15e22e362e606ee87186beab71",
            ),
            (
                JointTrajectoryControllerState::DESCRIPTION,
                "RIHS01_51d8dd89cc624cbe9daaeeb4d80d6de9b86168ffdc3be41fefc0953e3c26e480",
            ),
            (
                CancelGoal::DESCRIPTION,
                "RIHS01_573d8b0a534451d7bc2ac8c5ffde8ac14b8593b7001175d0cd6516dcbeb8689a",
            ),
            (
                GoalStatusArray::DESCRIPTION,
                "RIHS01_6c1684b00f177d37438febe6e709fc4e2b0d4248dca4854946f9ed8b30cda83e",
            ),
            (
                GoalStatus::DESCRIPTION,
                "RIHS01_32f4cfd717735d17657e1178f24431c1ce996c878c515230f6c5b3476819dbb9",
            ),
            (
                GoalInfo::DESCRIPTION,
                "RIHS01_6398fe763154554353930716b225947f93b672f0fb2e49fdd01bb7a7e37933e9",
            ),
            (
                Uuid::DESCRIPTION,
                "RIHS01_1b8e8aca958cbea28fe6ef60bf6c19b683c97a9ef60bb34752067d0f2f7ab437",
            ),
        ];
        for (description, published) in described {
            let hash = TypeHash::of_description(description);
            assert_eq!(hash.to_string(), published, "{}", description.type_name());
        }
    }

    #[test]
    fn an_action_service_is_named_under_action() {
        assert_eq!(
            FollowJointTrajectorySendGoal::DESCRIPTION.type_name(),
            "control_msgs/action/FollowJointTrajectory_SendGoal"
        );
        assert_eq!(
            <FollowJointTrajectorySendGoalRequest as Message>::DESCRIPTION.dds_type_name(),
            "control_msgs::action::dds_::FollowJointTrajectory_SendGoal_Request_"
        );
    }
}
