//! Any frame (id, standard or extended, remote or data, 0–8 bytes) through the decoder, and any
//! five f32s through the MIT encoder: neither may panic, and what decodes must agree with its id.
#![no_main]

use embedded_can::{ExtendedId, Frame as _, Id, StandardId};
use libfuzzer_sys::fuzz_target;
use robstride_protocol::{Feedback, Frame, MitCommand, Model, Reply};

fuzz_target!(|input: &[u8]| {
    let Some((head, data)) = input.split_first_chunk::<5>() else {
        return;
    };
    let [i0, i1, i2, i3, flags] = *head;
    let raw = u32::from_le_bytes([i0, i1, i2, i3]);
    let id: Id = match (
        flags & 1 == 0,
        ExtendedId::new(raw & Frame::MAX_EXTENDED_ID),
    ) {
        (true, Some(ext)) => ext.into(),
        _ => match StandardId::new((raw & 0x7FF) as u16) {
            Some(std) => std.into(),
            None => return,
        },
    };
    let len = data.len().min(8);
    let frame = if flags & 2 != 0 {
        Frame::new_remote(id, len)
    } else {
        Frame::new(id, &data[..len])
    };
    let Some(frame) = frame else { return };
    if let Ok(reply) = Reply::decode(&frame) {
        let ext = frame.extended_id().unwrap_or_default();
        assert_eq!(reply.comm_type() as u32, ext >> 24);
        assert_eq!(u32::from(reply.motor()), (ext >> 8) & 0xFF);
    }
    for model in Model::ALL {
        let _ = Feedback::decode(&frame, model);
    }
    if let Some((floats, _)) = input.split_first_chunk::<20>() {
        let f = |i: usize| {
            let b = &floats[4 * i..4 * i + 4];
            f32::from_le_bytes([b[0], b[1], b[2], b[3]])
        };
        if let Ok(mit) = MitCommand::new(f(0), f(1), f(2), f(3), f(4)) {
            for model in Model::ALL {
                let _ = mit.encode(model, flags);
            }
        }
    }
});
