//! Nothing: see `benches/peer.rs`.
