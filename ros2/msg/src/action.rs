//! What a ROS 2 action is on the wire (rcl_action, Jazzy): three services and two topics under
//! `<action>/_action/`, `action_msgs`' goal ids and statuses, and the action type's own
//! description, from which the type hash its endpoints announce is computed.
//!
//! rosidl describes an action `pkg/action/Name` as a type of six fields: `goal`, `result`,
//! `feedback` (`pkg/action/Name_Goal`, ...), `send_goal_service`, `get_result_service`
//! (`Name_SendGoal`, `Name_GetResult`, services under `action`) and `feedback_message`
//! (`Name_FeedbackMessage`: a goal id and a feedback). Cancelling is `action_msgs/srv/CancelGoal`
//! and the status topic `action_msgs/msg/GoalStatusArray`, the same for every action.

use crate::message::{Message, TypeDescription};
use crate::msg::Time;
use crate::service::Service;
use crate::{ros_message, ros_service};

ros_message! {
    /// `unique_identifier_msgs/msg/UUID`: a goal's id.
    pub struct Uuid as "UUID" in "unique_identifier_msgs" {
        /// Sixteen octets (RFC 4122).
        uuid: [u8; 16],
    }
}

ros_message! {
    /// `action_msgs/msg/GoalInfo`: a goal and when it was accepted.
    pub struct GoalInfo in "action_msgs" {
        /// Its id.
        goal_id: Uuid,
        /// When the server accepted it.
        stamp: Time,
    }
}

/// `action_msgs/msg/GoalStatus`' statuses.
pub mod goal_status {
    /// Not known.
    pub const UNKNOWN: i8 = 0;
    /// Accepted, not yet executing.
    pub const ACCEPTED: i8 = 1;
    /// Executing.
    pub const EXECUTING: i8 = 2;
    /// Asked to cancel, still executing.
    pub const CANCELING: i8 = 3;
    /// Done.
    pub const SUCCEEDED: i8 = 4;
    /// Cancelled.
    pub const CANCELED: i8 = 5;
    /// Given up (preempted, a tolerance violated, an error).
    pub const ABORTED: i8 = 6;
}

ros_message! {
    /// `action_msgs/msg/GoalStatus`: a goal and where it stands ([`goal_status`]).
    pub struct GoalStatus in "action_msgs" {
        /// The goal.
        goal_info: GoalInfo,
        /// One of [`goal_status`].
        status: i8,
    }
}

ros_message! {
    /// `action_msgs/msg/GoalStatusArray`: every goal the server knows, on `_action/status`.
    pub struct GoalStatusArray in "action_msgs" {
        /// Their statuses.
        status_list: Vec<GoalStatus>,
    }
}

/// `action_msgs/srv/CancelGoal`'s return codes.
pub mod cancel_code {
    /// Cancelling, the goals listed.
    pub const ERROR_NONE: i8 = 0;
    /// Refused.
    pub const ERROR_REJECTED: i8 = 1;
    /// No such goal.
    pub const ERROR_UNKNOWN_GOAL_ID: i8 = 2;
    /// It had ended already.
    pub const ERROR_GOAL_TERMINATED: i8 = 3;
}

ros_service! {
    /// `action_msgs/srv/CancelGoal`: `<action>/_action/cancel_goal`.
    pub service CancelGoal in "action_msgs" {
        request CancelGoalRequest {
            /// The goal (a zero id: every goal accepted up to `stamp`; a zero stamp: all).
            goal_info: GoalInfo,
        }
        response CancelGoalResponse {
            /// One of [`cancel_code`].
            return_code: i8,
            /// The goals now cancelling.
            goals_canceling: Vec<GoalInfo>,
        }
        event CancelGoalEvent
    }
}

/// A ROS 2 action type.
pub trait Action: 'static {
    /// What a client asks for.
    type Goal: Message;
    /// What it gets at the end.
    type Result: Message;
    /// What it hears meanwhile.
    type Feedback: Message;
    /// `_action/send_goal`.
    type SendGoal: Service;
    /// `_action/get_result`.
    type GetResult: Service;
    /// `_action/feedback`'s message: a goal id and a feedback.
    type FeedbackMessage: Message;
    /// The action type's description (`control_msgs/action/FollowJointTrajectory`): its six
    /// fields.
    const DESCRIPTION: &'static TypeDescription;

    /// A send_goal request's goal id and goal.
    fn goal_of(request: &<Self::SendGoal as Service>::Request) -> (&Uuid, &Self::Goal);
    /// A send_goal response.
    fn goal_response(accepted: bool, stamp: Time) -> <Self::SendGoal as Service>::Response;
    /// A get_result request's goal id.
    fn result_goal(request: &<Self::GetResult as Service>::Request) -> &Uuid;
    /// A get_result response.
    fn result_response(status: i8, result: Self::Result) -> <Self::GetResult as Service>::Response;
    /// A feedback message.
    fn feedback_message(goal_id: Uuid, feedback: Self::Feedback) -> Self::FeedbackMessage;

    /// A client's send_goal request.
    fn goal_request(goal_id: Uuid, goal: Self::Goal) -> <Self::SendGoal as Service>::Request;
    /// Whether a send_goal response accepts the goal.
    fn accepted(response: &<Self::SendGoal as Service>::Response) -> bool;
    /// A client's get_result request.
    fn result_request(goal_id: Uuid) -> <Self::GetResult as Service>::Request;
    /// A get_result response's status and result.
    fn result_of(response: <Self::GetResult as Service>::Response) -> (i8, Self::Result);
    /// A feedback message's goal id and feedback.
    fn feedback_of(message: &Self::FeedbackMessage) -> (&Uuid, &Self::Feedback);
}
