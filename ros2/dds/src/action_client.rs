//! A node's action clients, as rcl_action's: goals sent through `<action>/_action/send_goal`,
//! results asked through `get_result`, cancels through `cancel_goal`, the newest feedback read
//! from `feedback`. Every call blocks its caller (never the control thread); what it is for is
//! a Rust program commanding a trajectory controller as MoveIt does, and the tests and
//! benchmarks that measure the servers here.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ros2_msg::QosProfile;
use ros2_msg::action::{Action, CancelGoal, CancelGoalRequest, CancelGoalResponse, GoalInfo, Uuid};
use ros2_msg::msg::Time;

use crate::action::part;
use crate::client::{CallError, ServiceClient};
use crate::error::WireError;
use crate::node::Node;
use crate::topics::Subscription;

/// A client of an action of `A`.
pub struct ActionClient<A: Action> {
    name: String,
    send_goal: ServiceClient<A::SendGoal>,
    get_result: ServiceClient<A::GetResult>,
    cancel: ServiceClient<CancelGoal>,
    feedback: Subscription<A::FeedbackMessage>,
}

impl<A: Action> std::fmt::Debug for ActionClient<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ActionClient")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// A goal id no other goal of this process has, and very likely of no other process: the
/// wall clock's nanoseconds, the process id and a count.
pub fn new_goal_id() -> Uuid {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos() as u64;
    let tail = (u64::from(std::process::id()) << 32) ^ COUNT.fetch_add(1, Ordering::Relaxed);
    let mut uuid = [0; 16];
    uuid[..8].copy_from_slice(&nanos.to_le_bytes());
    uuid[8..].copy_from_slice(&tail.to_le_bytes());
    Uuid { uuid }
}

impl Node {
    /// A client of action `action` (`/arm_trajectory_controller/follow_joint_trajectory`),
    /// this node's.
    pub fn action_client<A: Action>(&self, action: &str) -> Result<ActionClient<A>, WireError> {
        Ok(ActionClient {
            name: action.to_string(),
            send_goal: self.client(&part(action, "send_goal")?)?,
            get_result: self.client(&part(action, "get_result")?)?,
            cancel: self.client(&part(action, "cancel_goal")?)?,
            // rcl_action's feedback topic: the topics' default (reliable, keep-last 10).
            feedback: self.subscription(&part(action, "feedback")?, QosProfile::reliable(10))?,
        })
    }
}

impl<A: Action> ActionClient<A> {
    /// The action's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Waits at most `timeout` for a server of its three services.
    pub fn wait_for_server(&self, timeout: Duration) -> bool {
        let started = std::time::Instant::now();
        let left = || timeout.saturating_sub(started.elapsed());
        self.send_goal.wait_for_service(left())
            && self.get_result.wait_for_service(left())
            && self.cancel.wait_for_service(left())
    }

    /// Sends `goal` under a new id; the id, and whether the server accepted it.
    pub fn send_goal(&self, goal: A::Goal, timeout: Duration) -> Result<(Uuid, bool), CallError> {
        let id = new_goal_id();
        let response = self
            .send_goal
            .call(A::goal_request(id.clone(), goal), timeout)?;
        Ok((id, A::accepted(&response)))
    }

    /// Waits at most `timeout` for goal `id`'s end: its status and result.
    pub fn result(&self, id: &Uuid, timeout: Duration) -> Result<(i8, A::Result), CallError> {
        let response = self
            .get_result
            .call(A::result_request(id.clone()), timeout)?;
        Ok(A::result_of(response))
    }

    /// Asks to cancel goal `id`.
    pub fn cancel(&self, id: &Uuid, timeout: Duration) -> Result<CancelGoalResponse, CallError> {
        let request = CancelGoalRequest {
            goal_info: GoalInfo {
                goal_id: id.clone(),
                stamp: Time::default(),
            },
        };
        self.cancel.call(request, timeout)
    }

    /// The newest feedback not read yet: its goal and the feedback.
    pub fn feedback(&mut self) -> Option<(Uuid, A::Feedback)> {
        let received = self.feedback.take_latest()?;
        let (id, feedback) = A::feedback_of(&received.message);
        Some((id.clone(), feedback.clone()))
    }
}
