import BLEBase

/// An Error Response's error code (Core v5.4 Vol 3 Part F §3.4.1.1; Core Specification
/// Supplement Part B for the common profile and service error codes).
public struct ATTErrorCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let invalidHandle = Self(rawValue: 0x01)
    public static let readNotPermitted = Self(rawValue: 0x02)
    public static let writeNotPermitted = Self(rawValue: 0x03)
    public static let invalidPDU = Self(rawValue: 0x04)
    public static let insufficientAuthentication = Self(rawValue: 0x05)
    public static let requestNotSupported = Self(rawValue: 0x06)
    public static let invalidOffset = Self(rawValue: 0x07)
    public static let insufficientAuthorization = Self(rawValue: 0x08)
    public static let prepareQueueFull = Self(rawValue: 0x09)
    public static let attributeNotFound = Self(rawValue: 0x0A)
    public static let attributeNotLong = Self(rawValue: 0x0B)
    public static let insufficientEncryptionKeySize = Self(rawValue: 0x0C)
    public static let invalidAttributeValueLength = Self(rawValue: 0x0D)
    public static let unlikelyError = Self(rawValue: 0x0E)
    public static let insufficientEncryption = Self(rawValue: 0x0F)
    public static let unsupportedGroupType = Self(rawValue: 0x10)
    public static let insufficientResources = Self(rawValue: 0x11)
    public static let databaseOutOfSync = Self(rawValue: 0x12)
    public static let valueNotAllowed = Self(rawValue: 0x13)

    /// 0x80–0x9F: defined by the higher layer (the application).
    public var isApplicationError: Bool { (0x80...0x9F).contains(rawValue) }

    public var name: String {
        switch rawValue {
        case 0x01: return "Invalid Handle"
        case 0x02: return "Read Not Permitted"
        case 0x03: return "Write Not Permitted"
        case 0x04: return "Invalid PDU"
        case 0x05: return "Insufficient Authentication"
        case 0x06: return "Request Not Supported"
        case 0x07: return "Invalid Offset"
        case 0x08: return "Insufficient Authorization"
        case 0x09: return "Prepare Queue Full"
        case 0x0A: return "Attribute Not Found"
        case 0x0B: return "Attribute Not Long"
        case 0x0C: return "Insufficient Encryption Key Size"
        case 0x0D: return "Invalid Attribute Value Length"
        case 0x0E: return "Unlikely Error"
        case 0x0F: return "Insufficient Encryption"
        case 0x10: return "Unsupported Group Type"
        case 0x11: return "Insufficient Resources"
        case 0x12: return "Database Out Of Sync"
        case 0x13: return "Value Not Allowed"
        case 0x80...0x9F: return "Application Error \(Hex.code(rawValue))"
        case 0xFC: return "Write Request Rejected"
        case 0xFD: return "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: return "Procedure Already in Progress"
        case 0xFF: return "Out of Range"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }

    /// True for Attribute Not Found answering a discovery request (Read By Group Type, Read By
    /// Type, Find Information, Find By Type Value): the normal end of a GATT discovery procedure
    /// (Core v5.4 Vol 3 Part G §4.4–§4.7), not a failure.
    public static func isNormalEndOfDiscovery(errorCode: ATTErrorCode, requestOpcode: ATTOpcode) -> Bool {
        guard errorCode == .attributeNotFound else { return false }
        switch requestOpcode {
        case .readByGroupTypeRequest, .readByTypeRequest, .findInformationRequest, .findByTypeValueRequest:
            return true
        default:
            return false
        }
    }
}
