import BLEBase

/// Core v5.4 Vol 4 Part E §7.7.14 Command Complete.
///
/// ```
/// +-----------------------+----------------+-----------------------------------+
/// | Num_HCI_Command_Pkts  | Command_Opcode | Return_Parameters (rest)          |
/// |          u8           |      u16       | first byte = Status for nearly all|
/// +-----------------------+----------------+-----------------------------------+
/// ```
public struct CommandCompleteEvent: Sendable, Equatable {
    public var numHCICommandPackets: UInt8
    public var commandOpcode: HCIOpcode
    public var returnParameters: [UInt8]

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        numHCICommandPackets = try r.readUInt8("Num_HCI_Command_Packets")
        commandOpcode = HCIOpcode(rawValue: try r.readUInt16LE("Command_Opcode"))
        returnParameters = r.readRemainingBytes()
    }

    /// The first return byte, which is the status for every command of §7.1–§7.8 (vendor commands
    /// are assumed to follow the same convention, as Broadcom's and Qualcomm's do); nil for the NOP
    /// credit event (opcode 0x0000) and for empty return parameters.
    public var status: HCIStatus? {
        guard !commandOpcode.isNOP, let first = returnParameters.first else { return nil }
        return HCIStatus(rawValue: first)
    }
}

/// Core v5.4 Vol 4 Part E §7.7.15 Command Status.
///
/// ```
/// +--------+-----------------------+----------------+
/// | Status | Num_HCI_Command_Pkts  | Command_Opcode |
/// |   u8   |          u8           |      u16       |
/// +--------+-----------------------+----------------+
/// ```
public struct CommandStatusEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var numHCICommandPackets: UInt8
    public var commandOpcode: HCIOpcode

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        numHCICommandPackets = try r.readUInt8("Num_HCI_Command_Packets")
        commandOpcode = HCIOpcode(rawValue: try r.readUInt16LE("Command_Opcode"))
    }
}
