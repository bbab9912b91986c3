import BLEBase

/// Packets of one kind and code that bledecode counts but does not decode, beside the L2CAP
/// channels it does not decode (`ChannelUse`): summarised in the report, never dropped
/// (docs/report.md, "Links and channels").
public struct PacketsNotAnalysed: Sendable, Equatable {
    /// What the packets are, in the report contract's words.
    public struct Kind: RawRepresentable, Hashable, Sendable, Comparable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// HCI Vendor Specific events (0xFF, Core v5.4 Vol 4 Part E §5.4.4); `code` is the first
        /// parameter byte, where vendors put a sub-event code.
        public static let hciVendorEvent = Self(rawValue: "hci-vendor-event")
        /// LL Control PDUs of an opcode bledecode has no layout for (Core v5.4 Vol 6 Part B
        /// §2.4.2); `code` is the opcode.
        public static let llControlUnknown = Self(rawValue: "ll-control-unknown")
        /// Commands of OGF 0x3D, BTstack's daemon protocol, never sent to a controller; `code` is
        /// the opcode.
        public static let btstackDaemonCommand = Self(rawValue: "btstack-daemon-command")
        /// Events of codes 0x60 to 0xFE, BTstack's daemon's events to its clients; `code` is the
        /// event code.
        public static let btstackDaemonEvent = Self(rawValue: "btstack-daemon-event")

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    public var kind: Kind
    /// The sub-event code, opcode or event code; nil for a vendor event without parameters.
    public var code: Int?
    public var packets: Int
    public var bytes: Int
    public var firstUs: Int64
    public var lastUs: Int64
    public var firstRecord: Int

    public init(kind: Kind, code: Int?, packets: Int, bytes: Int, firstUs: Int64, lastUs: Int64, firstRecord: Int) {
        self.kind = kind
        self.code = code
        self.packets = packets
        self.bytes = bytes
        self.firstUs = firstUs
        self.lastUs = lastUs
        self.firstRecord = firstRecord
    }

    /// `BTstack daemon command (OCF 0x0022)`, `LL Control opcode 0xFF`: what the report calls them.
    public var name: String {
        let code = code ?? 0
        switch kind {
        case .hciVendorEvent:
            guard self.code != nil else { return "Vendor Specific event (no parameters)" }
            return code == 0x58 ? "Vendor Specific event, sub-event 0x58 (Android Bluetooth Quality Report)"
                : "Vendor Specific event, sub-event \(Hex.code(UInt8(truncatingIfNeeded: code)))"
        case .llControlUnknown: return "LL Control opcode \(Hex.code(UInt8(truncatingIfNeeded: code)))"
        case .btstackDaemonCommand: return "BTstack daemon command (OCF \(Hex.code(UInt16(code & 0x03FF), width: 4)))"
        case .btstackDaemonEvent: return "BTstack daemon event \(Hex.code(UInt8(truncatingIfNeeded: code)))"
        default: return kind.rawValue + (self.code.map { " " + Hex.code($0) } ?? "")
        }
    }

    /// Counts one packet in `list`, by kind and code, in order of first appearance.
    static func count(_ kind: Kind, code: Int?, bytes: Int, timeUs: Int64, record: Int, in list: inout [PacketsNotAnalysed]) {
        if let i = list.firstIndex(where: { $0.kind == kind && $0.code == code }) {
            list[i].packets += 1
            list[i].bytes += bytes
            list[i].firstUs = min(list[i].firstUs, timeUs)
            list[i].lastUs = max(list[i].lastUs, timeUs)
        } else {
            list.append(PacketsNotAnalysed(kind: kind, code: code, packets: 1, bytes: bytes, firstUs: timeUs, lastUs: timeUs,
                                           firstRecord: record))
        }
    }
}
