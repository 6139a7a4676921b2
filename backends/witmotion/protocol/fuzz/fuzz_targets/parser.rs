//! Any byte stream, cut into chunks where the input's first bytes say, through the parser, a byte
//! at a time too: neither may panic, both must find the same frames with the same counters,
//! every byte must be accounted for, and every frame must decode or be refused. The input's
//! last five bytes go through the command decoder as well.
#![no_main]

use libfuzzer_sys::fuzz_target;
use witmotion_protocol::{Command, FRAME_LEN, Frame, Parser, Reading};

fuzz_target!(|input: &[u8]| {
    let Some((&cut_seed, stream)) = input.split_first() else {
        return;
    };
    let chunk = 1 + usize::from(cut_seed);

    let mut chunked = Parser::new();
    let mut frames: Vec<Frame> = Vec::new();
    for piece in stream.chunks(chunk) {
        frames.extend(chunked.push(piece));
    }
    let mut fed = Parser::new();
    let by_byte: Vec<Frame> = stream.iter().filter_map(|&b| fed.feed(b)).collect();
    assert_eq!(frames, by_byte);
    assert_eq!(chunked.counters(), fed.counters());
    assert_eq!(chunked.pending(), fed.pending());

    let counters = chunked.counters();
    assert_eq!(counters.frames as usize, frames.len());
    assert_eq!(
        frames.len() * FRAME_LEN + counters.skipped_bytes as usize + chunked.pending(),
        stream.len()
    );
    for frame in &frames {
        let bytes = frame.encode();
        assert_eq!(Frame::from_bytes(&bytes), Ok(*frame));
        assert!(stream.windows(FRAME_LEN).any(|w| w == bytes));
        if let Ok(reading) = Reading::decode(frame) {
            assert_eq!(reading.kind(), frame.kind());
            let _ = reading.encode();
        }
    }

    if let Some((_, command)) = input.split_last_chunk::<5>()
        && let Ok(decoded) = Command::decode(command)
    {
        assert_eq!(&decoded.encode(), command);
    }
});
