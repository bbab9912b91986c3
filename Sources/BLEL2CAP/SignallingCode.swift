import BLEBase

/// An L2CAP signalling command code (Core v5.4 Vol 3 Part A §4).
public struct SignallingCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let commandReject = Self(rawValue: 0x01)
    public static let connectionRequest = Self(rawValue: 0x02)
    public static let connectionResponse = Self(rawValue: 0x03)
    public static let configurationRequest = Self(rawValue: 0x04)
    public static let configurationResponse = Self(rawValue: 0x05)
    public static let disconnectionRequest = Self(rawValue: 0x06)
    public static let disconnectionResponse = Self(rawValue: 0x07)
    public static let echoRequest = Self(rawValue: 0x08)
    public static let echoResponse = Self(rawValue: 0x09)
    public static let informationRequest = Self(rawValue: 0x0A)
    public static let informationResponse = Self(rawValue: 0x0B)
    public static let createChannelRequest = Self(rawValue: 0x0C)
    public static let createChannelResponse = Self(rawValue: 0x0D)
    public static let moveChannelRequest = Self(rawValue: 0x0E)
    public static let moveChannelResponse = Self(rawValue: 0x0F)
    public static let moveChannelConfirmationRequest = Self(rawValue: 0x10)
    public static let moveChannelConfirmationResponse = Self(rawValue: 0x11)
    public static let connectionParameterUpdateRequest = Self(rawValue: 0x12)
    public static let connectionParameterUpdateResponse = Self(rawValue: 0x13)
    public static let leCreditBasedConnectionRequest = Self(rawValue: 0x14)
    public static let leCreditBasedConnectionResponse = Self(rawValue: 0x15)
    public static let flowControlCreditIndication = Self(rawValue: 0x16)
    public static let creditBasedConnectionRequest = Self(rawValue: 0x17)
    public static let creditBasedConnectionResponse = Self(rawValue: 0x18)
    public static let creditBasedReconfigureRequest = Self(rawValue: 0x19)
    public static let creditBasedReconfigureResponse = Self(rawValue: 0x1A)

    /// Name and the size rule of the command's data for every code this decoder types
    /// (Part A §4); BR/EDR-only codes have a name and no typed data.
    private var entry: (name: String, length: ParameterLength?)? {
        switch rawValue {
        case 0x01: return ("Command Reject", .atLeast(2))
        case 0x02: return ("Connection Request", nil)
        case 0x03: return ("Connection Response", nil)
        case 0x04: return ("Configuration Request", nil)
        case 0x05: return ("Configuration Response", nil)
        case 0x06: return ("Disconnection Request", .fixed(4))
        case 0x07: return ("Disconnection Response", .fixed(4))
        case 0x08: return ("Echo Request", nil)
        case 0x09: return ("Echo Response", nil)
        case 0x0A: return ("Information Request", nil)
        case 0x0B: return ("Information Response", nil)
        case 0x0C: return ("Create Channel Request", nil)
        case 0x0D: return ("Create Channel Response", nil)
        case 0x0E: return ("Move Channel Request", nil)
        case 0x0F: return ("Move Channel Response", nil)
        case 0x10: return ("Move Channel Confirmation Request", nil)
        case 0x11: return ("Move Channel Confirmation Response", nil)
        case 0x12: return ("Connection Parameter Update Request", .fixed(8))
        case 0x13: return ("Connection Parameter Update Response", .fixed(2))
        case 0x14: return ("LE Credit Based Connection Request", .fixed(10))
        case 0x15: return ("LE Credit Based Connection Response", .fixed(10))
        case 0x16: return ("Flow Control Credit Indication", .fixed(4))
        case 0x17: return ("Credit Based Connection Request", .atLeast(10))
        case 0x18: return ("Credit Based Connection Response", .atLeast(8))
        case 0x19: return ("Credit Based Reconfigure Request", .atLeast(6))
        case 0x1A: return ("Credit Based Reconfigure Response", .fixed(2))
        default: return nil
        }
    }

    public var name: String { entry?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The size rule of the command's data when this decoder types it.
    public var dataLength: ParameterLength? { entry?.length }
}
