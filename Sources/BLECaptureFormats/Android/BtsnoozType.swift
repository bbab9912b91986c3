import BLEBase

/// The type byte of a btsnooz record: the Android stack's internal packet type shifted right by
/// 8 (`BT_EVT_TO_LM_HCI_CMD` = 0x2000 → 0x20; ble-facts §3, AOSP `btsnooz.py`).
public struct BtsnoozType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let eventIn = Self(rawValue: 0x10)
    public static let aclIn = Self(rawValue: 0x11)
    public static let scoIn = Self(rawValue: 0x12)
    public static let isoIn = Self(rawValue: 0x17)
    public static let commandOut = Self(rawValue: 0x20)
    public static let aclOut = Self(rawValue: 0x21)
    public static let scoOut = Self(rawValue: 0x22)
    public static let isoOut = Self(rawValue: 0x2D)

    /// Every known type: its name, record kind and direction (the one table of this format).
    private static let table: [UInt8: (name: String, kind: RecordKind, direction: Direction)] = [
        0x10: ("Event in", .hciEvent, .received),
        0x11: ("ACL in", .aclData, .received),
        0x12: ("SCO in", .scoData, .received),
        0x17: ("ISO in", .isoData, .received),
        0x20: ("Command out", .hciCommand, .sent),
        0x21: ("ACL out", .aclData, .sent),
        0x22: ("SCO out", .scoData, .sent),
        0x2D: ("ISO out", .isoData, .sent),
    ]

    public var isKnown: Bool { Self.table[rawValue] != nil }

    /// The record kind; `.unknown` keeps the code of types this reader does not know.
    public var kind: RecordKind { Self.table[rawValue]?.kind ?? .unknown(code: UInt32(rawValue)) }

    public var direction: Direction { Self.table[rawValue]?.direction ?? .unknown }

    public var name: String { Self.table[rawValue]?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The type a record of `kind` travelling `direction` is logged with; nil when btsnooz has
    /// none (notes, control records, air packets).
    public init?(kind: RecordKind, direction: Direction) {
        if case .unknown(let code) = kind, let byte = UInt8(exactly: code) {
            self.init(rawValue: byte)
            return
        }
        guard let entry = Self.table.first(where: { $0.value.kind == kind && $0.value.direction == direction }) else {
            return nil
        }
        self.init(rawValue: entry.key)
    }
}
