import BLEBase

/// What role a PDU plays in the protocol (Core v5.4 Vol 3 Part F §3.3).
public enum ATTPDUKind: String, Sendable, Equatable {
    case request, response, command, notification, indication, confirmation
}

/// An ATT opcode (Core v5.4 Vol 3 Part F §3.3.1; the opcode summary in §3.4.8).
///
/// ```
///  7                       6               5 ... 0
/// +-----------------------+---------------+---------+
/// | authentication        | command flag  | method  |
/// | signature flag        |               |         |
/// +-----------------------+---------------+---------+
/// ```
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let errorResponse = Self(rawValue: 0x01)
    public static let exchangeMTURequest = Self(rawValue: 0x02)
    public static let exchangeMTUResponse = Self(rawValue: 0x03)
    public static let findInformationRequest = Self(rawValue: 0x04)
    public static let findInformationResponse = Self(rawValue: 0x05)
    public static let findByTypeValueRequest = Self(rawValue: 0x06)
    public static let findByTypeValueResponse = Self(rawValue: 0x07)
    public static let readByTypeRequest = Self(rawValue: 0x08)
    public static let readByTypeResponse = Self(rawValue: 0x09)
    public static let readRequest = Self(rawValue: 0x0A)
    public static let readResponse = Self(rawValue: 0x0B)
    public static let readBlobRequest = Self(rawValue: 0x0C)
    public static let readBlobResponse = Self(rawValue: 0x0D)
    public static let readMultipleRequest = Self(rawValue: 0x0E)
    public static let readMultipleResponse = Self(rawValue: 0x0F)
    public static let readByGroupTypeRequest = Self(rawValue: 0x10)
    public static let readByGroupTypeResponse = Self(rawValue: 0x11)
    public static let writeRequest = Self(rawValue: 0x12)
    public static let writeResponse = Self(rawValue: 0x13)
    public static let prepareWriteRequest = Self(rawValue: 0x16)
    public static let prepareWriteResponse = Self(rawValue: 0x17)
    public static let executeWriteRequest = Self(rawValue: 0x18)
    public static let executeWriteResponse = Self(rawValue: 0x19)
    public static let handleValueNotification = Self(rawValue: 0x1B)
    public static let handleValueIndication = Self(rawValue: 0x1D)
    public static let handleValueConfirmation = Self(rawValue: 0x1E)
    public static let readMultipleVariableRequest = Self(rawValue: 0x20)
    public static let readMultipleVariableResponse = Self(rawValue: 0x21)
    public static let multipleHandleValueNotification = Self(rawValue: 0x23)
    public static let writeCommand = Self(rawValue: 0x52)
    public static let signedWriteCommand = Self(rawValue: 0xD2)

    /// Name, kind and parameter size rule of every opcode defined by Core v5.4 (§3.4.1–§3.4.7;
    /// sizes exclude the opcode byte). The one table the decoder and the summaries read.
    private var entry: (name: String, kind: ATTPDUKind, length: ParameterLength)? {
        switch rawValue {
        case 0x01: return ("Error Response", .response, .fixed(4))
        case 0x02: return ("Exchange MTU Request", .request, .fixed(2))
        case 0x03: return ("Exchange MTU Response", .response, .fixed(2))
        case 0x04: return ("Find Information Request", .request, .fixed(4))
        case 0x05: return ("Find Information Response", .response, .atLeast(5))
        case 0x06: return ("Find By Type Value Request", .request, .atLeast(6))
        case 0x07: return ("Find By Type Value Response", .response, .atLeast(4))
        case 0x08: return ("Read By Type Request", .request, .atLeast(6))
        case 0x09: return ("Read By Type Response", .response, .atLeast(3))
        case 0x0A: return ("Read Request", .request, .fixed(2))
        case 0x0B: return ("Read Response", .response, .atLeast(0))
        case 0x0C: return ("Read Blob Request", .request, .fixed(4))
        case 0x0D: return ("Read Blob Response", .response, .atLeast(0))
        case 0x0E: return ("Read Multiple Request", .request, .atLeast(4))
        case 0x0F: return ("Read Multiple Response", .response, .atLeast(0))
        case 0x10: return ("Read By Group Type Request", .request, .atLeast(6))
        case 0x11: return ("Read By Group Type Response", .response, .atLeast(5))
        case 0x12: return ("Write Request", .request, .atLeast(2))
        case 0x13: return ("Write Response", .response, .fixed(0))
        case 0x16: return ("Prepare Write Request", .request, .atLeast(4))
        case 0x17: return ("Prepare Write Response", .response, .atLeast(4))
        case 0x18: return ("Execute Write Request", .request, .fixed(1))
        case 0x19: return ("Execute Write Response", .response, .fixed(0))
        case 0x1B: return ("Handle Value Notification", .notification, .atLeast(2))
        case 0x1D: return ("Handle Value Indication", .indication, .atLeast(2))
        case 0x1E: return ("Handle Value Confirmation", .confirmation, .fixed(0))
        case 0x20: return ("Read Multiple Variable Request", .request, .atLeast(4))
        case 0x21: return ("Read Multiple Variable Response", .response, .atLeast(2))
        case 0x23: return ("Multiple Handle Value Notification", .notification, .atLeast(4))
        case 0x52: return ("Write Command", .command, .atLeast(2))
        case 0xD2: return ("Signed Write Command", .command, .atLeast(14))
        default: return nil
        }
    }

    public var name: String { entry?.name ?? "Unknown (\(Hex.code(rawValue)))" }

    /// False for opcodes Core v5.4 does not define (every defined one has a size rule).
    public var isKnown: Bool { parameterLength != nil }

    /// The role of a known opcode; an unknown opcode with the command flag is a command.
    public var kind: ATTPDUKind? { Self.kinds[Int(rawValue)] }

    /// `kind` of every opcode value, taken from `entry` once (read several times per PDU).
    private static let kinds: [ATTPDUKind?] = (0...255).map {
        let opcode = ATTOpcode(rawValue: UInt8($0))
        return opcode.entry?.kind ?? (opcode.isCommand ? .command : nil)
    }

    /// The size rule of a known opcode's parameters.
    public var parameterLength: ParameterLength? { Self.parameterLengths[Int(rawValue)] }

    /// `parameterLength` of every opcode value, taken from `entry` once (read for every PDU).
    private static let parameterLengths: [ParameterLength?] = (0...255).map {
        ATTOpcode(rawValue: UInt8($0)).entry?.length
    }

    /// Bit 6: the PDU is a command (no response expected).
    public var isCommand: Bool { rawValue & 0x40 != 0 }

    /// Bit 7: an authentication signature follows the parameters.
    public var hasAuthenticationSignature: Bool { rawValue & 0x80 != 0 }

    /// Bits 0–5.
    public var method: UInt8 { rawValue & 0x3F }

    /// What answers this PDU: request + 1, Handle Value Confirmation for an indication; nil for
    /// PDUs that expect nothing (an Error Response may answer any request as well).
    public var expectedResponse: ATTOpcode? {
        switch kind {
        case .request: return ATTOpcode(rawValue: rawValue &+ 1)
        case .indication: return .handleValueConfirmation
        default: return nil
        }
    }

    /// The request a response answers (response − 1; the indication for a confirmation). Nil for
    /// Error Response, which names its request in its parameters.
    public var requestOpcode: ATTOpcode? {
        switch kind {
        case .response where self != .errorResponse: return ATTOpcode(rawValue: rawValue &- 1)
        case .confirmation: return .handleValueIndication
        default: return nil
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
