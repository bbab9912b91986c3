import BLEBase

/// IO capability (Core v5.4 Vol 3 Part H §3.5.1, Table 3.4).
public struct SMPIOCapability: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let displayOnly = Self(rawValue: 0x00)
    public static let displayYesNo = Self(rawValue: 0x01)
    public static let keyboardOnly = Self(rawValue: 0x02)
    public static let noInputNoOutput = Self(rawValue: 0x03)
    public static let keyboardDisplay = Self(rawValue: 0x04)

    public var name: String {
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
public struct SMPAuthenticationRequirements: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bonding_Flags (bits 0–1): 0b01 bonding, 0b00 no bonding, others reserved.
    public var bondingFlags: UInt8 { rawValue & 0x03 }
    public var bonding: Bool { bondingFlags == 0x01 }
    public var mitm: Bool { rawValue & 0x04 != 0 }
    public var secureConnections: Bool { rawValue & 0x08 != 0 }
    public var keypress: Bool { rawValue & 0x10 != 0 }
    public var ct2: Bool { rawValue & 0x20 != 0 }

    /// Names of the set requirements in bit order: `bonding`, `MITM`, `SC`, `keypress`, `CT2`.
    public var names: [String] {
        [(bonding, "bonding"), (mitm, "MITM"), (secureConnections, "SC"), (keypress, "keypress"), (ct2, "CT2")]
            .filter(\.0).map(\.1)
    }
}

/// Initiator/Responder Key Distribution bits (Core v5.4 Vol 3 Part H §3.6.1, Figure 3.11).
public struct SMPKeyDistribution: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let encryptionKey = Self(rawValue: 0x01)
    public static let identityKey = Self(rawValue: 0x02)
    public static let signingKey = Self(rawValue: 0x04)
    public static let linkKey = Self(rawValue: 0x08)

    public func contains(_ key: Self) -> Bool { rawValue & key.rawValue == key.rawValue }

    /// Names of the set bits: `EncKey`, `IdKey`, `SignKey`, `LinkKey`.
    public var names: [String] {
        [(Self.encryptionKey, "EncKey"), (.identityKey, "IdKey"), (.signingKey, "SignKey"), (.linkKey, "LinkKey")]
            .filter { contains($0.0) }.map(\.1)
    }
}

/// Pairing Failed reason (Core v5.4 Vol 3 Part H §3.5.5, Table 3.7).
public struct SMPPairingFailedReason: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let passkeyEntryFailed = Self(rawValue: 0x01)
    public static let confirmValueFailed = Self(rawValue: 0x04)
    public static let pairingNotSupported = Self(rawValue: 0x05)
    public static let unspecifiedReason = Self(rawValue: 0x08)
    public static let dhKeyCheckFailed = Self(rawValue: 0x0B)

    public var name: String {
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
public struct SMPKeypressNotificationType: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public var name: String {
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
