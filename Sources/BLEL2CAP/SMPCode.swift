import BLEBase

/// A Security Manager Protocol command code (Core v5.4 Vol 3 Part H §3.3, Table 3.3).
public struct SMPCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let pairingRequest = Self(rawValue: 0x01)
    public static let pairingResponse = Self(rawValue: 0x02)
    public static let pairingConfirm = Self(rawValue: 0x03)
    public static let pairingRandom = Self(rawValue: 0x04)
    public static let pairingFailed = Self(rawValue: 0x05)
    public static let encryptionInformation = Self(rawValue: 0x06)
    public static let centralIdentification = Self(rawValue: 0x07)
    public static let identityInformation = Self(rawValue: 0x08)
    public static let identityAddressInformation = Self(rawValue: 0x09)
    public static let signingInformation = Self(rawValue: 0x0A)
    public static let securityRequest = Self(rawValue: 0x0B)
    public static let pairingPublicKey = Self(rawValue: 0x0C)
    public static let pairingDHKeyCheck = Self(rawValue: 0x0D)
    public static let keypressNotification = Self(rawValue: 0x0E)

    /// Name and parameter size of every known command (§3.5–§3.6: all are fixed-size).
    private var entry: (name: String, size: Int)? {
        switch rawValue {
        case 0x01: return ("Pairing Request", 6)
        case 0x02: return ("Pairing Response", 6)
        case 0x03: return ("Pairing Confirm", 16)
        case 0x04: return ("Pairing Random", 16)
        case 0x05: return ("Pairing Failed", 1)
        case 0x06: return ("Encryption Information", 16)
        case 0x07: return ("Central Identification", 10)
        case 0x08: return ("Identity Information", 16)
        case 0x09: return ("Identity Address Information", 7)
        case 0x0A: return ("Signing Information", 16)
        case 0x0B: return ("Security Request", 1)
        case 0x0C: return ("Pairing Public Key", 64)
        case 0x0D: return ("Pairing DHKey Check", 16)
        case 0x0E: return ("Keypress Notification", 1)
        default: return nil
        }
    }

    public var name: String { entry?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The parameters' size rule for known codes.
    public var parameterLength: ParameterLength? { entry.map { .fixed($0.size) } }
}
