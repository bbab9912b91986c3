import BLEBase

/// The role a connection complete event reports (Core v5.4 Vol 4 Part E §7.7.65.1):
/// 0 central, 1 peripheral.
public struct LERole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let central = Self(rawValue: 0)
    public static let peripheral = Self(rawValue: 1)

    public var name: String {
        switch rawValue {
        case 0: return "central"
        case 1: return "peripheral"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }

    public var description: String { name }
}

/// An LE PHY as HCI numbers it (Core v5.4 Vol 4 Part E §7.7.65.12, §7.7.65.13):
/// 1 LE 1M, 2 LE 2M, 3 LE Coded; 0 in a secondary-PHY field means "no packets on the secondary channel".
public struct LEPHY: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let none = Self(rawValue: 0)
    public static let le1M = Self(rawValue: 1)
    public static let le2M = Self(rawValue: 2)
    public static let leCoded = Self(rawValue: 3)

    public var name: String {
        switch rawValue {
        case 0: return "None"
        case 1: return "LE 1M"
        case 2: return "LE 2M"
        case 3: return "LE Coded"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }

    public var description: String { name }

    /// The PHYs named by a PHY bit mask (bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded), in bit order:
    /// the order per-PHY parameter blocks follow on the wire.
    static func phys(inMask mask: UInt8, allowed: [LEPHY]) -> [LEPHY] {
        allowed.filter { mask & (1 << ($0.rawValue - 1)) != 0 }
    }
}

/// Fixed-point HCI time units turned into exact microseconds and `30.00 ms` text.
enum HCITime {
    /// Connection interval and CE length unit (Core v5.4 Vol 4 Part E §7.8.12).
    static let connectionIntervalUnit = 1_250
    /// Scan interval / window and advertising interval unit.
    static let scanUnit = 625
    /// Supervision timeout and extended scan duration unit.
    static let supervisionTimeoutUnit = 10_000

    /// `30.00 ms`, rounded to hundredths.
    static func milliseconds(_ microseconds: Int) -> String {
        let hundredths = (microseconds + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}
