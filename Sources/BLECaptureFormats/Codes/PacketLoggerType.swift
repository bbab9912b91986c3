import BLEBase

/// The type byte of an Apple PacketLogger record (ble-facts §2: Wireshark `packetlogger.c`,
/// BlueZ `src/shared/btsnoop.c`, which adds ISO 0x12/0x13).
public struct PacketLoggerType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let hciCommand = Self(rawValue: 0x00)
    public static let hciEvent = Self(rawValue: 0x01)
    public static let aclSent = Self(rawValue: 0x02)
    public static let aclReceived = Self(rawValue: 0x03)
    public static let scoSent = Self(rawValue: 0x08)
    public static let scoReceived = Self(rawValue: 0x09)
    public static let lmpSent = Self(rawValue: 0x0A)
    public static let lmpReceived = Self(rawValue: 0x0B)
    public static let isoSent = Self(rawValue: 0x12)
    public static let isoReceived = Self(rawValue: 0x13)
    public static let syslog = Self(rawValue: 0xF7)
    public static let kernel = Self(rawValue: 0xF8)
    public static let kernelDebug = Self(rawValue: 0xF9)
    public static let error = Self(rawValue: 0xFA)
    public static let power = Self(rawValue: 0xFB)
    public static let note = Self(rawValue: 0xFC)
    public static let config = Self(rawValue: 0xFD)
    public static let newController = Self(rawValue: 0xFE)

    typealias Meaning = (name: String, kind: RecordKind, direction: Direction)

    /// The meaning of every type value, looked up once per record (and three times at that).
    private static let meanings: [Meaning?] = (0...255).map { Self(rawValue: UInt8($0)).listedMeaning }

    var meaning: Meaning? { Self.meanings[Int(rawValue)] }

    /// Name, record kind and direction of every known type: the one table reader, writer and
    /// format detection use. Nil for unknown types.
    private var listedMeaning: Meaning? {
        let control = { (name: ControlName) in (name.description, RecordKind.control(name: name, code: UInt32(rawValue)), Direction.unknown) }
        switch self {
        case .hciCommand: return ("HCI Command", .hciCommand, .sent)
        case .hciEvent: return ("HCI Event", .hciEvent, .received)
        case .aclSent: return ("ACL Sent", .aclData, .sent)
        case .aclReceived: return ("ACL Received", .aclData, .received)
        case .scoSent: return ("SCO Sent", .scoData, .sent)
        case .scoReceived: return ("SCO Received", .scoData, .received)
        case .lmpSent: return control("LMP Sent")
        case .lmpReceived: return control("LMP Received / Vendor Diagnostic")
        case .isoSent: return ("ISO Sent", .isoData, .sent)
        case .isoReceived: return ("ISO Received", .isoData, .received)
        case .syslog: return ("Syslog", .note(.syslog), .unknown)
        case .kernel: return ("Kernel", .note(.kernel), .unknown)
        case .kernelDebug: return ("Kernel Debug", .note(.kernelDebug), .unknown)
        case .error: return ("Error", .note(.error), .unknown)
        case .power: return ("Power", .note(.power), .unknown)
        case .note: return ("Note", .note(.note), .unknown)
        case .config: return ("Config", .note(.config), .unknown)
        case .newController: return control("New Controller")
        default: return nil
        }
    }

    public var isKnown: Bool { meaning != nil }
    public var name: String { meaning?.name ?? "Unknown (\(Hex.code(rawValue)))" }
    public var kind: RecordKind { meaning?.kind ?? .unknown(code: UInt32(rawValue)) }
    public var direction: Direction { meaning?.direction ?? .unknown }

    /// The type that carries a record of this kind and direction; nil when none does.
    public init?(kind: RecordKind, direction: Direction) {
        switch (kind, direction) {
        case (.hciCommand, _): self = .hciCommand
        case (.hciEvent, _): self = .hciEvent
        case (.aclData, .sent): self = .aclSent
        case (.aclData, .received): self = .aclReceived
        case (.scoData, .sent): self = .scoSent
        case (.scoData, .received): self = .scoReceived
        case (.isoData, .sent): self = .isoSent
        case (.isoData, .received): self = .isoReceived
        case (.note(.syslog), _): self = .syslog
        case (.note(.kernel), _): self = .kernel
        case (.note(.kernelDebug), _): self = .kernelDebug
        case (.note(.error), _): self = .error
        case (.note(.power), _): self = .power
        case (.note(.note), _): self = .note
        case (.note(.config), _): self = .config
        case (.control(_, let code), _) where code <= 0xFF: self.init(rawValue: UInt8(code))
        case (.unknown(let code), _) where code <= 0xFF: self.init(rawValue: UInt8(code))
        default: return nil
        }
    }
}
