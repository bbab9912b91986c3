import BLEBase

/// Command Reject reason (Core v5.4 Vol 3 Part A §4.1).
public struct CommandRejectReason: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let commandNotUnderstood = Self(rawValue: 0x0000)
    public static let signallingMTUExceeded = Self(rawValue: 0x0001)
    public static let invalidCIDInRequest = Self(rawValue: 0x0002)

    public var name: String {
        switch rawValue {
        case 0x0000: return "Command not understood"
        case 0x0001: return "Signalling MTU exceeded"
        case 0x0002: return "Invalid CID in request"
        default: return "Unknown (\(Hex.code(rawValue, width: 4)))"
        }
    }
}

/// Connection Parameter Update Response result (Core v5.4 Vol 3 Part A §4, Connection
/// Parameter Update Response).
public struct ConnectionParameterUpdateResult: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let accepted = Self(rawValue: 0x0000)
    public static let rejected = Self(rawValue: 0x0001)

    public var name: String {
        switch rawValue {
        case 0x0000: return "Accepted"
        case 0x0001: return "Rejected"
        default: return "Unknown (\(Hex.code(rawValue, width: 4)))"
        }
    }
}

/// Result of an LE Credit Based or Credit Based Connection Response (Core v5.4 Vol 3 Part A
/// §4: the two result tables share their codes; for the latter "refused" may apply to some of
/// the channels only).
public struct CreditBasedConnectionResult: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = Self(rawValue: 0x0000)
    public static let spsmNotSupported = Self(rawValue: 0x0002)
    public static let insufficientResources = Self(rawValue: 0x0004)
    public static let insufficientAuthentication = Self(rawValue: 0x0005)
    public static let insufficientAuthorization = Self(rawValue: 0x0006)
    public static let encryptionKeySizeTooShort = Self(rawValue: 0x0007)
    public static let insufficientEncryption = Self(rawValue: 0x0008)
    public static let invalidSourceCID = Self(rawValue: 0x0009)
    public static let sourceCIDAlreadyAllocated = Self(rawValue: 0x000A)
    public static let unacceptableParameters = Self(rawValue: 0x000B)
    public static let invalidParameters = Self(rawValue: 0x000C)

    public var name: String {
        switch rawValue {
        case 0x0000: return "Connection successful"
        case 0x0002: return "Refused: SPSM not supported"
        case 0x0004: return "Refused: insufficient resources"
        case 0x0005: return "Refused: insufficient authentication"
        case 0x0006: return "Refused: insufficient authorization"
        case 0x0007: return "Refused: encryption key size too short"
        case 0x0008: return "Refused: insufficient encryption"
        case 0x0009: return "Refused: invalid Source CID"
        case 0x000A: return "Refused: Source CID already allocated"
        case 0x000B: return "Refused: unacceptable parameters"
        case 0x000C: return "Refused: invalid parameters"
        default: return "Unknown (\(Hex.code(rawValue, width: 4)))"
        }
    }
}

/// Credit Based Reconfigure Response result (Core v5.4 Vol 3 Part A §4).
public struct CreditBasedReconfigureResult: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let successful = Self(rawValue: 0x0000)

    public var name: String {
        switch rawValue {
        case 0x0000: return "Reconfiguration successful"
        case 0x0001: return "Failed: reduction in MTU not allowed"
        case 0x0002: return "Failed: reduction in MPS not allowed for more than one channel"
        case 0x0003: return "Failed: one or more Destination CIDs invalid"
        case 0x0004: return "Failed: unacceptable parameters"
        default: return "Unknown (\(Hex.code(rawValue, width: 4)))"
        }
    }
}
