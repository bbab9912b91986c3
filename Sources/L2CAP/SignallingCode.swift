import BLEBase

/// An L2CAP signalling command code (Core v5.4 Vol 3 Part A §4).
package struct SignallingCode: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let commandReject = Self(rawValue: 0x01)
    package static let connectionRequest = Self(rawValue: 0x02)
    package static let connectionResponse = Self(rawValue: 0x03)
    package static let configurationRequest = Self(rawValue: 0x04)
    package static let configurationResponse = Self(rawValue: 0x05)
    package static let disconnectionRequest = Self(rawValue: 0x06)
    package static let disconnectionResponse = Self(rawValue: 0x07)
    package static let echoRequest = Self(rawValue: 0x08)
    package static let echoResponse = Self(rawValue: 0x09)
    package static let informationRequest = Self(rawValue: 0x0A)
    package static let informationResponse = Self(rawValue: 0x0B)
    package static let createChannelRequest = Self(rawValue: 0x0C)
    package static let createChannelResponse = Self(rawValue: 0x0D)
    package static let moveChannelRequest = Self(rawValue: 0x0E)
    package static let moveChannelResponse = Self(rawValue: 0x0F)
    package static let moveChannelConfirmationRequest = Self(rawValue: 0x10)
    package static let moveChannelConfirmationResponse = Self(rawValue: 0x11)
    package static let connectionParameterUpdateRequest = Self(rawValue: 0x12)
    package static let connectionParameterUpdateResponse = Self(rawValue: 0x13)
    package static let leCreditBasedConnectionRequest = Self(rawValue: 0x14)
    package static let leCreditBasedConnectionResponse = Self(rawValue: 0x15)
    package static let flowControlCreditIndication = Self(rawValue: 0x16)
    package static let creditBasedConnectionRequest = Self(rawValue: 0x17)
    package static let creditBasedConnectionResponse = Self(rawValue: 0x18)
    package static let creditBasedReconfigureRequest = Self(rawValue: 0x19)
    package static let creditBasedReconfigureResponse = Self(rawValue: 0x1A)

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

    package var name: String { entry?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// The size rule of the command's data when this decoder types it.
    package var dataLength: ParameterLength? { entry?.length }
}
