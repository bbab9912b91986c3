import BLEBase

/// An L2CAP channel identifier (Core v5.4 Vol 3 Part A §2.1, Table 2.1 and 2.2).
package struct ChannelID: RawRepresentable, Hashable, Sendable, Comparable {
    package var rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let null = Self(rawValue: 0x0000)
    package static let signalling = Self(rawValue: 0x0001)
    package static let connectionless = Self(rawValue: 0x0002)
    package static let ampManager = Self(rawValue: 0x0003)
    package static let attribute = Self(rawValue: 0x0004)
    package static let leSignalling = Self(rawValue: 0x0005)
    package static let securityManager = Self(rawValue: 0x0006)
    package static let brEdrSecurityManager = Self(rawValue: 0x0007)

    /// First dynamically allocated identifier (both transports).
    package static let firstDynamic = Self(rawValue: 0x0040)
    /// Last identifier of the LE dynamic range.
    package static let lastLEDynamic = Self(rawValue: 0x007F)

    package var isDynamic: Bool { rawValue >= Self.firstDynamic.rawValue }
    package var isLEDynamic: Bool { (Self.firstDynamic.rawValue...Self.lastLEDynamic.rawValue).contains(rawValue) }

    package var name: String {
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

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
