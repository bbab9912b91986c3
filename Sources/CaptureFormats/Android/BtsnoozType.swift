import BLEBase

/// The type byte of a btsnooz record: the Android stack's internal packet type shifted right by
/// 8 (`BT_EVT_TO_LM_HCI_CMD` = 0x2000 → 0x20; ble-facts §3, AOSP `btsnooz.py`).
package struct BtsnoozType: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let eventIn = Self(rawValue: 0x10)
    package static let aclIn = Self(rawValue: 0x11)
    package static let scoIn = Self(rawValue: 0x12)
    package static let isoIn = Self(rawValue: 0x17)
    package static let commandOut = Self(rawValue: 0x20)
    package static let aclOut = Self(rawValue: 0x21)
    package static let scoOut = Self(rawValue: 0x22)
    package static let isoOut = Self(rawValue: 0x2D)

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

    package var isKnown: Bool { Self.table[rawValue] != nil }

    /// The record kind; `.unknown` keeps the code of types this reader does not know.
    package var kind: RecordKind { Self.table[rawValue]?.kind ?? .unknown(code: UInt32(rawValue)) }

    package var direction: Direction { Self.table[rawValue]?.direction ?? .unknown }

    package var name: String { Self.table[rawValue]?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The type a record of `kind` travelling `direction` is logged with; nil when btsnooz has
    /// none (notes, control records, air packets).
    package init?(kind: RecordKind, direction: Direction) {
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
