//! The handoff of published messages from the control thread to the DDS thread: a queue of
//! preallocated messages, so that every message published reaches DDS in order, as
//! `rclcpp::Publisher::publish` from `write()` would send it, unless the DDS thread is
//! `depth` messages behind.
//!
//! Two wait-free single-producer single-consumer rings (`rtrb`) circulate `depth + 1`
//! messages: the control side fills the one it holds, swaps it for an empty one from the
//! `free` ring and pushes the filled one onto the `full` ring; the DDS thread pops it, hands a
//! copy to DDS (which takes samples by value; the copy is made there, off the control thread)
//! and returns it to `free`. Messages only move, so nothing is allocated on the control side
//! once the buffers have the capacity their contents need. When `free` is empty the DDS thread
//! is `depth` messages behind: the message held is kept to be filled again, and the one it
//! held is dropped, and counted.

use rtrb::RingBuffer;

/// The control thread's side.
pub(crate) struct Outbox<M> {
    held: M,
    free: rtrb::Consumer<M>,
    full: rtrb::Producer<M>,
}

/// The DDS thread's side.
pub(crate) struct Outgoing<M> {
    full: rtrb::Consumer<M>,
    free: rtrb::Producer<M>,
}

/// An outbox of `depth` messages in flight (at least one), each starting as `template`.
pub(crate) fn outbox<M: Clone>(template: &M, depth: usize) -> (Outbox<M>, Outgoing<M>) {
    let depth = depth.max(1);
    let (mut free_in, free_out) = RingBuffer::new(depth);
    let (full_in, full_out) = RingBuffer::new(depth);
    for _ in 0..depth {
        // `depth` slots, `depth` pushes: none can fail.
        let _ = free_in.push(template.clone());
    }
    (
        Outbox {
            held: template.clone(),
            free: free_out,
            full: full_in,
        },
        Outgoing {
            full: full_out,
            free: free_in,
        },
    )
}

impl<M> Outbox<M> {
    /// The message to fill: it holds what was published `depth` or so messages ago.
    pub(crate) fn message_mut(&mut self) -> &mut M {
        &mut self.held
    }

    /// Queues the message held for the DDS thread. False when the DDS thread is `depth`
    /// messages behind: the message is not queued, and is filled again next time.
    pub(crate) fn publish(&mut self) -> bool {
        let Ok(empty) = self.free.pop() else {
            return false;
        };
        let filled = std::mem::replace(&mut self.held, empty);
        // `depth + 1` messages circulate and one was just taken from `free`, so `full` has
        // room; were it ever full, the message would come back to be filled again.
        match self.full.push(filled) {
            Ok(()) => true,
            Err(rtrb::PushError::Full(filled)) => {
                let empty = std::mem::replace(&mut self.held, filled);
                drop(empty);
                false
            }
        }
    }
}

impl<M> Outgoing<M> {
    /// Whether a message waits.
    pub(crate) fn pending(&self) -> bool {
        !self.full.is_empty()
    }

    /// Hands every waiting message, oldest first, to `send`, then returns it to the outbox.
    pub(crate) fn drain(&mut self, mut send: impl FnMut(&M)) {
        while let Ok(message) = self.full.pop() {
            send(&message);
            // The outbox took one from `free` for each pushed to `full`: there is room.
            let _ = self.free.push(message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_arrives_in_order_until_the_queue_is_full() {
        let (mut outbox, mut outgoing) = outbox(&0_u32, 3);
        for i in 1..=5 {
            *outbox.message_mut() = i;
            let queued = outbox.publish();
            assert_eq!(queued, i <= 3, "message {i}");
        }
        let mut seen = Vec::new();
        outgoing.drain(|m| seen.push(*m));
        assert_eq!(seen, [1, 2, 3]);
        // Drained, the queue takes messages again; the one held (5) goes first.
        assert!(outbox.publish());
        *outbox.message_mut() = 6;
        assert!(outbox.publish());
        outgoing.drain(|m| seen.push(*m));
        assert_eq!(seen, [1, 2, 3, 5, 6]);
        assert!(!outgoing.pending());
    }

    #[test]
    fn buffers_circulate_with_their_capacity() {
        let (mut outbox, mut outgoing) = outbox(&Vec::<f64>::with_capacity(14), 2);
        for round in 0..10 {
            let message = outbox.message_mut();
            message.clear();
            message.extend((0..14).map(f64::from));
            assert!(message.capacity() >= 14);
            assert!(outbox.publish(), "round {round}");
            outgoing.drain(|m| assert_eq!(m.len(), 14));
        }
    }
}
