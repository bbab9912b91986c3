import BLEBase

/// A Security Manager Protocol command code (Core v5.4 Vol 3 Part H §3.3, Table 3.3).
package struct SMPCode: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let pairingRequest = Self(rawValue: 0x01)
    package static let pairingResponse = Self(rawValue: 0x02)
    package static let pairingConfirm = Self(rawValue: 0x03)
    package static let pairingRandom = Self(rawValue: 0x04)
    package static let pairingFailed = Self(rawValue: 0x05)
    package static let encryptionInformation = Self(rawValue: 0x06)
    package static let centralIdentification = Self(rawValue: 0x07)
    package static let identityInformation = Self(rawValue: 0x08)
    package static let identityAddressInformation = Self(rawValue: 0x09)
    package static let signingInformation = Self(rawValue: 0x0A)
    package static let securityRequest = Self(rawValue: 0x0B)
    package static let pairingPublicKey = Self(rawValue: 0x0C)
    package static let pairingDHKeyCheck = Self(rawValue: 0x0D)
    package static let keypressNotification = Self(rawValue: 0x0E)

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

    package var name: String { entry?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The parameters' size rule for known codes.
    package var parameterLength: ParameterLength? { entry.map { .fixed($0.size) } }
}
