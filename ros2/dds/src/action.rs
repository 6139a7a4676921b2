//! A node's action servers, as rcl_action serves them (Jazzy): under `<action>/_action/`, the
//! `send_goal`, `cancel_goal` and `get_result` services and the `feedback` and `status` topics,
//! with `action_msgs`' goal ids and statuses, so rclpy's `ActionClient` works against it.
//!
//! The server keeps the goals' table; what executes them is the caller's: it takes accepted
//! goals ([`ActionServer::take_goal`]), says when one executes, publishes feedback, sees cancel
//! requests, and ends each with a status and a result. A `get_result` asked before the end is
//! answered at the end ([`crate::Reply`]). Everything runs off the control thread: the services
//! on the participant's thread, the rest on the caller's.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use ros2_msg::action::{
    Action, CancelGoal, CancelGoalResponse, GoalInfo, GoalStatus, GoalStatusArray, Uuid,
    cancel_code, goal_status,
};
use ros2_msg::msg::Time;
use ros2_msg::{QosProfile, ReliabilityKind, Service, TopicName};

use crate::error::WireError;
use crate::node::Node;
use crate::service::{Reply, ServiceServer};
use crate::topics::Publisher;

/// `rcl_action_qos_profile_status_default`: reliable, transient-local, keep-last 1.
const STATUS_QOS: QosProfile = QosProfile {
    reliability: ReliabilityKind::Reliable,
    depth: 1,
    transient_local: true,
};
/// Feedback: rcl_action's default, the topics' default (reliable, keep-last 10).
const FEEDBACK_QOS: QosProfile = QosProfile::reliable(10);
/// Ended goals kept for late `get_result` calls.
const KEPT_ENDED: usize = 64;

/// One goal the server knows.
struct Goal<A: Action> {
    info: GoalInfo,
    status: i8,
    result: Option<A::Result>,
    /// `get_result` calls waiting for its end.
    waiting: Vec<Reply<A::GetResult>>,
}

/// The goals' table, shared by the services and the executor.
struct Table<A: Action> {
    goals: Vec<Goal<A>>,
    /// Accepted, not yet taken by the executor.
    accepted: VecDeque<(Uuid, A::Goal)>,
    status: Publisher<GoalStatusArray>,
}

impl<A: Action> Table<A> {
    fn find(&mut self, id: &Uuid) -> Option<&mut Goal<A>> {
        self.goals.iter_mut().find(|g| g.info.goal_id == *id)
    }

    /// Every goal's status, published (transient-local: a late client sees it too).
    fn publish_status(&mut self) {
        let list = (self.goals.iter())
            .map(|g| GoalStatus {
                goal_info: g.info.clone(),
                status: g.status,
            })
            .collect();
        self.status.message_mut().status_list = list;
        self.status.publish();
    }

    /// Forgets the oldest ended goals beyond [`KEPT_ENDED`].
    fn prune(&mut self) {
        let ended = |g: &Goal<A>| terminal(g.status);
        while self.goals.iter().filter(|g| ended(g)).count() > KEPT_ENDED {
            if let Some(oldest) = self.goals.iter().position(ended) {
                self.goals.remove(oldest);
            }
        }
    }
}

fn terminal(status: i8) -> bool {
    matches!(
        status,
        goal_status::SUCCEEDED | goal_status::CANCELED | goal_status::ABORTED
    )
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// An action server of `A`: it serves while this handle lives.
pub struct ActionServer<A: Action> {
    name: String,
    table: Arc<Mutex<Table<A>>>,
    feedback: Mutex<Publisher<A::FeedbackMessage>>,
    _services: [ServiceServer; 3],
}

impl<A: Action> std::fmt::Debug for ActionServer<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ActionServer")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// The full name of `<action>/_action/<part>`.
pub(crate) fn part(action: &str, part: &str) -> Result<TopicName, WireError> {
    let name = format!("{}/_action/{part}", action.trim_end_matches('/'));
    TopicName::new(&name).map_err(|source| WireError::Name { name, source })
}

impl Node {
    /// An action server of `A` named `action` (`/arm_controller/follow_joint_trajectory`),
    /// this node's. `accept` decides each goal as it arrives (on the participant's thread:
    /// check it there, quickly); an accepted one waits for [`ActionServer::take_goal`].
    pub fn action_server<A: Action>(
        &self,
        action: &str,
        mut accept: impl FnMut(&Uuid, &A::Goal) -> bool + Send + 'static,
    ) -> Result<ActionServer<A>, WireError> {
        let status = self.publisher(
            &part(action, "status")?,
            STATUS_QOS,
            GoalStatusArray::default(),
        )?;
        let feedback = self.publisher(
            &part(action, "feedback")?,
            FEEDBACK_QOS,
            A::FeedbackMessage::default(),
        )?;
        let table = Arc::new(Mutex::new(Table::<A> {
            goals: Vec::new(),
            accepted: VecDeque::new(),
            status,
        }));
        let send_goal = self.service::<A::SendGoal>(&part(action, "send_goal")?, {
            let table = table.clone();
            move |request| {
                let (id, goal) = A::goal_of(request);
                let stamp = Time::now();
                let mut table = locked(&table);
                let known = table.find(id).is_some();
                let accepted = !known && accept(id, goal);
                if accepted {
                    table.goals.push(Goal {
                        info: GoalInfo {
                            goal_id: id.clone(),
                            stamp: stamp.clone(),
                        },
                        status: goal_status::ACCEPTED,
                        result: None,
                        waiting: Vec::new(),
                    });
                    table.accepted.push_back((id.clone(), goal.clone()));
                    table.publish_status();
                }
                A::goal_response(accepted, stamp)
            }
        })?;
        let cancel = self.service::<CancelGoal>(&part(action, "cancel_goal")?, {
            let table = table.clone();
            move |request| cancel_goals(&mut locked(&table), &request.goal_info)
        })?;
        let get_result = self.deferred_service::<A::GetResult>(&part(action, "get_result")?, {
            let table = table.clone();
            move |request: &<A::GetResult as Service>::Request, reply| {
                let mut table = locked(&table);
                match table.find(A::result_goal(request)) {
                    Some(goal) if terminal(goal.status) => reply.send(A::result_response(
                        goal.status,
                        goal.result.clone().unwrap_or_default(),
                    )),
                    Some(goal) => goal.waiting.push(reply),
                    None => reply.send(A::result_response(
                        goal_status::UNKNOWN,
                        A::Result::default(),
                    )),
                }
            }
        })?;
        Ok(ActionServer {
            name: action.to_string(),
            table,
            feedback: Mutex::new(feedback),
            _services: [send_goal, cancel, get_result],
        })
    }
}

/// `cancel_goal` as rcl_action answers it: a goal by id; with a zero id, every goal accepted
/// at or before the stamp (a zero stamp: all of them).
fn cancel_goals<A: Action>(table: &mut Table<A>, asked: &GoalInfo) -> CancelGoalResponse {
    let zero_id = asked.goal_id.uuid == [0; 16];
    let zero_stamp = asked.stamp == Time::default();
    let mut canceling = Vec::new();
    let mut ended = false;
    let mut known = false;
    for goal in &mut table.goals {
        let chosen = if zero_id {
            zero_stamp || goal.info.stamp.as_nanos() <= asked.stamp.as_nanos()
        } else {
            goal.info.goal_id == asked.goal_id
        };
        if !chosen {
            continue;
        }
        known = true;
        if terminal(goal.status) {
            ended = true;
            continue;
        }
        goal.status = goal_status::CANCELING;
        canceling.push(goal.info.clone());
    }
    let return_code = match (canceling.is_empty(), known, ended) {
        (false, ..) => cancel_code::ERROR_NONE,
        (true, false, _) if !zero_id => cancel_code::ERROR_UNKNOWN_GOAL_ID,
        (true, _, true) => cancel_code::ERROR_GOAL_TERMINATED,
        (true, ..) => cancel_code::ERROR_NONE,
    };
    if !canceling.is_empty() {
        table.publish_status();
    }
    CancelGoalResponse {
        return_code,
        goals_canceling: canceling,
    }
}

impl<A: Action> ActionServer<A> {
    /// The action's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The oldest accepted goal not yet taken.
    pub fn take_goal(&self) -> Option<(Uuid, A::Goal)> {
        locked(&self.table).accepted.pop_front()
    }

    /// Goal `id` is executing.
    pub fn executing(&self, id: &Uuid) {
        let mut table = locked(&self.table);
        if let Some(goal) = table.find(id).filter(|g| g.status == goal_status::ACCEPTED) {
            goal.status = goal_status::EXECUTING;
            table.publish_status();
        }
    }

    /// Whether a client asked to cancel goal `id`.
    pub fn cancel_requested(&self, id: &Uuid) -> bool {
        let mut table = locked(&self.table);
        table
            .find(id)
            .is_some_and(|g| g.status == goal_status::CANCELING)
    }

    /// Publishes feedback about goal `id`.
    pub fn feedback(&self, id: &Uuid, feedback: A::Feedback) {
        let mut publisher = locked(&self.feedback);
        *publisher.message_mut() = A::feedback_message(id.clone(), feedback);
        publisher.publish();
    }

    /// Ends goal `id` with `status` (SUCCEEDED, CANCELED, ABORTED) and `result`: its
    /// `get_result` calls are answered, the status published. A goal ended already stays as it
    /// ended.
    pub fn finish(&self, id: &Uuid, status: i8, result: A::Result) {
        let mut table = locked(&self.table);
        let Some(goal) = table.find(id).filter(|g| !terminal(g.status)) else {
            return;
        };
        goal.status = status;
        goal.result = Some(result.clone());
        for reply in goal.waiting.drain(..) {
            reply.send(A::result_response(status, result.clone()));
        }
        table.publish_status();
        table.prune();
    }
}
