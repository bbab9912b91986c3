import BLEBase

/// The HCI packet indicator byte of the UART transport (Core v5.4 Vol 4 Part A §2), which btsnoop
/// datalink 1002 and pcap link types 187/201 put before each HCI packet.
public struct H4PacketType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let command = Self(rawValue: 0x01)
    public static let aclData = Self(rawValue: 0x02)
    public static let scoData = Self(rawValue: 0x03)
    public static let event = Self(rawValue: 0x04)
    public static let isoData = Self(rawValue: 0x05)

    /// The record kind of a packet with this indicator; `.unknown` keeps other codes.
    public var kind: RecordKind {
        switch self {
        case .command: return .hciCommand
        case .aclData: return .aclData
        case .scoData: return .scoData
        case .event: return .hciEvent
        case .isoData: return .isoData
        default: return .unknown(code: UInt32(rawValue))
        }
    }

    /// The indicator for an HCI record kind; nil for kinds H4 cannot carry.
    public init?(kind: RecordKind) {
        switch kind {
        case .hciCommand: self = .command
        case .aclData: self = .aclData
        case .scoData: self = .scoData
        case .hciEvent: self = .event
        case .isoData: self = .isoData
        case .unknown(let code) where code <= 0xFF: self.init(rawValue: UInt8(code))
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .command: return "Command"
        case .aclData: return "ACL Data"
        case .scoData: return "SCO Data"
        case .event: return "Event"
        case .isoData: return "ISO Data"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}

/// An H4 frame: the packet indicator, then the HCI packet.
///
/// ```
/// +------+------------------------+
/// | type |  HCI packet ...        |
/// |  u8  |                        |
/// +------+------------------------+
/// ```
enum H4Frame {
    /// Core v5.4 Vol 4 Part A §2: one indicator byte, then the packet (the rest of the record, in
    /// place). Zero bytes is no frame. A pair, not a struct: the packet moves out of it, where a
    /// struct's field would be copied and the struct destroyed, on every record.
    static func parse(_ reader: inout ByteReader) throws(DecodeError) -> (type: H4PacketType, packet: ByteReader) {
        let type = H4PacketType(rawValue: try reader.readUInt8("H4 packet type"))
        return (type, reader.sliceRemaining())
    }
}
