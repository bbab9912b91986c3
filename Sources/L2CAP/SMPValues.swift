import BLEBase

/// IO capability (Core v5.4 Vol 3 Part H §3.5.1, Table 3.4).
package struct SMPIOCapability: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let displayOnly = Self(rawValue: 0x00)
    package static let displayYesNo = Self(rawValue: 0x01)
    package static let keyboardOnly = Self(rawValue: 0x02)
    package static let noInputNoOutput = Self(rawValue: 0x03)
    package static let keyboardDisplay = Self(rawValue: 0x04)

    package var name: String {
        switch rawValue {
        case 0x00: return "DisplayOnly"
        case 0x01: return "DisplayYesNo"
        case 0x02: return "KeyboardOnly"
        case 0x03: return "NoInputNoOutput"
        case 0x04: return "KeyboardDisplay"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}

/// The AuthReq bit field (Core v5.4 Vol 3 Part H §3.5.1, Figure 3.3).
///
/// ```
///  7   6    5     4      3    2      1  0
/// +-------+-----+------+----+------+------+
/// |  RFU  | CT2 | Kp   | SC | MITM | Bond |
/// +-------+-----+------+----+------+------+
/// ```
package struct SMPAuthenticationRequirements: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags (bits 0–1): 0b01 bonding, 0b00 no bonding, others reserved.
    package var bondingFlags: UInt8 { rawValue & 0x03 }
    package var bonding: Bool { bondingFlags == 0x01 }
    package var mitm: Bool { rawValue & 0x04 != 0 }
    package var secureConnections: Bool { rawValue & 0x08 != 0 }
    package var keypress: Bool { rawValue & 0x10 != 0 }
    package var ct2: Bool { rawValue & 0x20 != 0 }

    /// Names of the set requirements in bit order: `bonding`, `MITM`, `SC`, `keypress`, `CT2`.
    package var names: [String] {
        [(bonding, "bonding"), (mitm, "MITM"), (secureConnections, "SC"), (keypress, "keypress"), (ct2, "CT2")]
            .filter(\.0).map(\.1)
    }
}

/// Initiator/Responder Key Distribution bits (Core v5.4 Vol 3 Part H §3.6.1, Figure 3.11).
package struct SMPKeyDistribution: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let encryptionKey = Self(rawValue: 0x01)
    package static let identityKey = Self(rawValue: 0x02)
    package static let signingKey = Self(rawValue: 0x04)
    package static let linkKey = Self(rawValue: 0x08)

    package func contains(_ key: Self) -> Bool { rawValue & key.rawValue == key.rawValue }

    /// Names of the set bits: `EncKey`, `IdKey`, `SignKey`, `LinkKey`.
    package var names: [String] {
        [(Self.encryptionKey, "EncKey"), (.identityKey, "IdKey"), (.signingKey, "SignKey"), (.linkKey, "LinkKey")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// Pairing Failed reason (Core v5.4 Vol 3 Part H §3.5.5, Table 3.7).
package struct SMPPairingFailedReason: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let passkeyEntryFailed = Self(rawValue: 0x01)
    package static let confirmValueFailed = Self(rawValue: 0x04)
    package static let pairingNotSupported = Self(rawValue: 0x05)
    package static let unspecifiedReason = Self(rawValue: 0x08)
    package static let dhKeyCheckFailed = Self(rawValue: 0x0B)

    package var name: String {
        switch rawValue {
        case 0x01: return "Passkey Entry Failed"
        case 0x02: return "OOB Not Available"
        case 0x03: return "Authentication Requirements"
        case 0x04: return "Confirm Value Failed"
        case 0x05: return "Pairing Not Supported"
        case 0x06: return "Encryption Key Size"
        case 0x07: return "Command Not Supported"
        case 0x08: return "Unspecified Reason"
        case 0x09: return "Repeated Attempts"
        case 0x0A: return "Invalid Parameters"
        case 0x0B: return "DHKey Check Failed"
        case 0x0C: return "Numeric Comparison Failed"
        case 0x0D: return "BR/EDR Pairing in Progress"
        case 0x0E: return "Cross-transport Key Derivation/Generation Not Allowed"
        case 0x0F: return "Key Rejected"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}

/// Keypress Notification type (Core v5.4 Vol 3 Part H §3.5.8, Table 3.8).
package struct SMPKeypressNotificationType: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package var name: String {
        switch rawValue {
        case 0x00: return "Passkey entry started"
        case 0x01: return "Passkey digit entered"
        case 0x02: return "Passkey digit erased"
        case 0x03: return "Passkey cleared"
        case 0x04: return "Passkey entry completed"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }
}
