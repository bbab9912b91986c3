import BLEBase

/// A Linux monitor channel opcode (BlueZ `src/shared/btsnoop.h` BTSNOOP_OPCODE_*), carried by
/// btsnoop datalink 2001 in the record flags and by pcap link type 254 in its pseudo-header.
public struct MonitorOpcode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let newIndex = Self(rawValue: 0)
    public static let deleteIndex = Self(rawValue: 1)
    public static let commandPacket = Self(rawValue: 2)
    public static let eventPacket = Self(rawValue: 3)
    public static let aclTxPacket = Self(rawValue: 4)
    public static let aclRxPacket = Self(rawValue: 5)
    public static let scoTxPacket = Self(rawValue: 6)
    public static let scoRxPacket = Self(rawValue: 7)
    public static let openIndex = Self(rawValue: 8)
    public static let closeIndex = Self(rawValue: 9)
    public static let indexInfo = Self(rawValue: 10)
    public static let vendorDiagnostic = Self(rawValue: 11)
    public static let systemNote = Self(rawValue: 12)
    public static let userLogging = Self(rawValue: 13)
    public static let controlOpen = Self(rawValue: 14)
    public static let controlClose = Self(rawValue: 15)
    public static let controlCommand = Self(rawValue: 16)
    public static let controlEvent = Self(rawValue: 17)
    public static let isoTxPacket = Self(rawValue: 18)
    public static let isoRxPacket = Self(rawValue: 19)

    /// Name, record kind and direction of every opcode: the one table both readers and the
    /// writers use. The name is a literal (nil for an unknown opcode), so that reading a record's
    /// kind builds no string.
    private var meaning: (name: StaticString?, kind: RecordKind, direction: Direction) {
        let control = { (name: StaticString) in
            (name, RecordKind.control(name: ControlName(stringLiteral: name), code: UInt32(rawValue)), Direction.unknown)
        }
        switch self {
        case .newIndex: return control("New Index")
        case .deleteIndex: return control("Delete Index")
        case .commandPacket: return ("Command", .hciCommand, .sent)
        case .eventPacket: return ("Event", .hciEvent, .received)
        case .aclTxPacket: return ("ACL TX", .aclData, .sent)
        case .aclRxPacket: return ("ACL RX", .aclData, .received)
        case .scoTxPacket: return ("SCO TX", .scoData, .sent)
        case .scoRxPacket: return ("SCO RX", .scoData, .received)
        case .openIndex: return control("Open Index")
        case .closeIndex: return control("Close Index")
        case .indexInfo: return control("Index Info")
        case .vendorDiagnostic: return control("Vendor Diagnostic")
        case .systemNote: return ("System Note", .note(.systemNote), .unknown)
        case .userLogging: return ("User Logging", .note(.userLogging), .unknown)
        case .controlOpen: return control("Control Open")
        case .controlClose: return control("Control Close")
        case .controlCommand: return control("Control Command")
        case .controlEvent: return control("Control Event")
        case .isoTxPacket: return ("ISO TX", .isoData, .sent)
        case .isoRxPacket: return ("ISO RX", .isoData, .received)
        default: return (nil, .unknown(code: UInt32(rawValue)), .unknown)
        }
    }

    public var name: String { meaning.name?.description ?? "Unknown (\(Hex.code(rawValue, width: 4)))" }

    /// The kind and direction of the records this opcode carries, from one look at the table.
    public var record: (kind: RecordKind, direction: Direction) {
        let meaning = meaning
        return (meaning.kind, meaning.direction)
    }

    /// The opcode that carries a record of this kind and direction; nil when none does.
    public init?(kind: RecordKind, direction: Direction) {
        switch (kind, direction) {
        case (.hciCommand, _): self = .commandPacket
        case (.hciEvent, _): self = .eventPacket
        case (.aclData, .sent): self = .aclTxPacket
        case (.aclData, .received): self = .aclRxPacket
        case (.scoData, .sent): self = .scoTxPacket
        case (.scoData, .received): self = .scoRxPacket
        case (.isoData, .sent): self = .isoTxPacket
        case (.isoData, .received): self = .isoRxPacket
        case (.note(.systemNote), _): self = .systemNote
        case (.note(.userLogging), _): self = .userLogging
        case (.control(_, let code), _) where code <= 0xFFFF: self.init(rawValue: UInt16(code))
        case (.unknown(let code), _) where code <= 0xFFFF: self.init(rawValue: UInt16(code))
        default: return nil
        }
    }
}

/// The payload of a monitor record, normalised: HCI packets as they are, text records as text.
struct MonitorPayload {
    /// Packets in place; text records rebuilt.
    var bytes: ByteReader

    /// System Note: NUL-terminated text. User Logging (BlueZ `monitor/control.c`):
    ///
    /// ```
    /// +----------+-----------+-------------------+------------------------+
    /// | priority | ident_len | ident (NUL incl.) | message (NUL-terminated)|
    /// |    u8    |    u8     |  ident_len bytes  |                        |
    /// +----------+-----------+-------------------+------------------------+
    /// ```
    ///
    /// becomes `ident: message` (just `message` with no ident). A User Logging payload too short
    /// for its header is kept as it is.
    init(parsing reader: inout ByteReader, opcode: MonitorOpcode) throws(DecodeError) {
        switch opcode {
        case .systemNote:
            bytes = ByteReader(TextField.upToNUL(reader.readRemainingBytes()))
        case .userLogging:
            var header = reader
            guard let _ = try? header.readUInt8("priority"),
                  let identLength = try? header.readUInt8("ident_len"),
                  let ident = try? header.readBytes(Int(identLength), "ident") else {
                bytes = reader.sliceRemaining()
                return
            }
            reader = header
            let message = TextField.upToNUL(reader.readRemainingBytes())
            let name = TextField.upToNUL(ident)
            bytes = ByteReader(name.isEmpty ? message : name + Array(": ".utf8) + message)
        default:
            bytes = reader.sliceRemaining()
        }
    }
}
