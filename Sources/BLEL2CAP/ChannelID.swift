import BLEBase

/// An L2CAP channel identifier (Core v5.4 Vol 3 Part A §2.1, Table 2.1 and 2.2).
public struct ChannelID: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let null = Self(rawValue: 0x0000)
    public static let signalling = Self(rawValue: 0x0001)
    public static let connectionless = Self(rawValue: 0x0002)
    public static let ampManager = Self(rawValue: 0x0003)
    public static let attribute = Self(rawValue: 0x0004)
    public static let leSignalling = Self(rawValue: 0x0005)
    public static let securityManager = Self(rawValue: 0x0006)
    public static let brEdrSecurityManager = Self(rawValue: 0x0007)

    /// First dynamically allocated identifier (both transports).
    public static let firstDynamic = Self(rawValue: 0x0040)
    /// Last identifier of the LE dynamic range.
    public static let lastLEDynamic = Self(rawValue: 0x007F)

    public var isDynamic: Bool { rawValue >= Self.firstDynamic.rawValue }
    public var isLEDynamic: Bool { (Self.firstDynamic.rawValue...Self.lastLEDynamic.rawValue).contains(rawValue) }

    public var name: String {
        switch rawValue {
        case 0x0000: return "Null"
        case 0x0001: return "BR/EDR Signalling"
        case 0x0002: return "Connectionless"
        case 0x0003: return "AMP Manager"
        case 0x0004: return "ATT"
        case 0x0005: return "LE Signalling"
        case 0x0006: return "SMP"
        case 0x0007: return "BR/EDR Security Manager"
        case 0x0040...0x007F: return "LE Dynamic (\(Hex.code(rawValue, width: 4)))"
        case 0x0080...: return "Dynamic (\(Hex.code(rawValue, width: 4)))"
        default: return "Unknown (\(Hex.code(rawValue, width: 4)))"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
