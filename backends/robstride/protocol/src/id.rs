//! The 29-bit extended id of the private protocol (docs/robstride-protocol.md §3).
//!
//! ```text
//! bit 28..24  communication type
//! bit 23..8   data area 2: host id in bits 15..8 for most host->motor frames, the torque for
//!             type 1, mode/faults/motor id for type 2 and 24, status/motor id for type 17
//! bit 7..0    destination: motor id (host->motor), host id (motor->host; 0xFE for type 0)
//! ```

/// A communication type (bits 28–24 of the id), §4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum CommType {
    /// 0: get device id; also the reply to types 0, 7, 23 and 25.
    GetId = 0,
    /// 1: operation ("MIT-style") control.
    Control = 1,
    /// 2: feedback, motor to host.
    Feedback = 2,
    /// 3: enable (run).
    Enable = 3,
    /// 4: stop; data byte 0 = 1 also clears faults.
    Stop = 4,
    /// 6: set mechanical zero.
    SetZero = 6,
    /// 7: set CAN id.
    SetCanId = 7,
    /// 17: read one parameter; also its reply.
    ReadParam = 17,
    /// 18: write one parameter (RAM).
    WriteParam = 18,
    /// 21: fault frame, motor to host.
    Fault = 21,
    /// 22: save parameters.
    Save = 22,
    /// 23: baud rate.
    BaudRate = 23,
    /// 24: active report on/off; also the periodic reports.
    ActiveReport = 24,
    /// 25: protocol switch.
    ProtocolSwitch = 25,
}

impl CommType {
    /// The type with number `raw`, if the protocol defines it.
    pub const fn from_u8(raw: u8) -> Option<CommType> {
        Some(match raw {
            0 => CommType::GetId,
            1 => CommType::Control,
            2 => CommType::Feedback,
            3 => CommType::Enable,
            4 => CommType::Stop,
            6 => CommType::SetZero,
            7 => CommType::SetCanId,
            17 => CommType::ReadParam,
            18 => CommType::WriteParam,
            21 => CommType::Fault,
            22 => CommType::Save,
            23 => CommType::BaudRate,
            24 => CommType::ActiveReport,
            25 => CommType::ProtocolSwitch,
            _ => return None,
        })
    }
}

/// The three fields of an extended id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IdFields {
    /// Bits 28–24: the communication type, as a raw 5-bit number.
    pub comm_type: u8,
    /// Bits 23–8: data area 2.
    pub data2: u16,
    /// Bits 7–0: the destination.
    pub low: u8,
}

impl IdFields {
    /// The fields of `raw` (bits above 28 are ignored).
    pub const fn unpack(raw: u32) -> IdFields {
        IdFields {
            comm_type: ((raw >> 24) & 0x1F) as u8,
            data2: (raw >> 8) as u16,
            low: raw as u8,
        }
    }

    /// The 29-bit id (bits of `comm_type` above 4 are dropped).
    pub const fn pack(self) -> u32 {
        ((self.comm_type as u32 & 0x1F) << 24) | ((self.data2 as u32) << 8) | self.low as u32
    }

    /// Bits 15–8: the host id in a host→motor frame, the motor id in a motor→host frame.
    pub const fn id_byte(self) -> u8 {
        self.data2 as u8
    }

    /// Bits 23–16.
    pub const fn high_byte(self) -> u8 {
        (self.data2 >> 8) as u8
    }
}

/// The id of type `comm_type` with data area 2 `data2` and destination `low`.
pub const fn pack(comm_type: CommType, data2: u16, low: u8) -> u32 {
    IdFields {
        comm_type: comm_type as u8,
        data2,
        low,
    }
    .pack()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manual_parameter_read_id_packs_and_unpacks() {
        // M §4.1.14: read loc_kp from motor 0x7F as host 0xFD.
        assert_eq!(pack(CommType::ReadParam, 0x00FD, 0x7F), 0x1100_FD7F);
        let reply = IdFields::unpack(0x1100_7FFD);
        assert_eq!(reply.comm_type, 17);
        assert_eq!(
            (reply.high_byte(), reply.id_byte(), reply.low),
            (0, 0x7F, 0xFD)
        );
    }

    #[test]
    fn every_number_from_u8_round_trips() {
        for raw in 0..=u8::MAX {
            if let Some(t) = CommType::from_u8(raw) {
                assert_eq!(t as u8, raw);
            }
        }
    }
}
