import BLEBase

/// A Protocol/Service Multiplexer: what a dynamic L2CAP channel was opened for (Core v5.4 Vol 3
/// Part A §4.2; the values are the SIG's assigned numbers, "Protocol Identifiers" and "LE PSM").
public struct PSM: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let sdp = Self(rawValue: 0x0001)
    public static let rfcomm = Self(rawValue: 0x0003)
    public static let att = Self(rawValue: 0x001F)
    /// Enhanced ATT bearers (Core v5.4 Vol 3 Part F §3.2.11), on enhanced credit-based channels.
    public static let eatt = Self(rawValue: 0x0027)

    public var name: String { Self.names[rawValue] ?? "PSM \(Hex.code(rawValue, width: 4))" }
    public var description: String { Self.names[rawValue] == nil ? name : "\(name) (\(Hex.code(rawValue, width: 4)))" }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    static let names: [UInt16: String] = [
        0x0001: "SDP", 0x0003: "RFCOMM", 0x0005: "TCS-BIN", 0x0007: "TCS-BIN-CORDLESS", 0x000F: "BNEP",
        0x0011: "HID Control", 0x0013: "HID Interrupt", 0x0015: "UPnP", 0x0017: "AVCTP", 0x0019: "AVDTP",
        0x001B: "AVCTP Browsing", 0x001D: "UDI C-Plane", 0x001F: "ATT", 0x0021: "3DSP", 0x0023: "IPSP",
        0x0025: "OTS", 0x0027: "EATT",
    ]
}
