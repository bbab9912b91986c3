import BLEAssignedNumbers
import BLEBase

/// An HCI status / error code (Core v5.4 Vol 1 Part F §1.3, list of error codes): the status of
/// Command Complete / Command Status / connection events and the reason of a disconnection.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = Self(rawValue: 0x00)
    public static let unknownConnectionIdentifier = Self(rawValue: 0x02)
    public static let connectionTimeout = Self(rawValue: 0x08)
    public static let commandDisallowed = Self(rawValue: 0x0C)
    public static let invalidCommandParameters = Self(rawValue: 0x12)
    public static let remoteUserTerminated = Self(rawValue: 0x13)
    public static let remoteDevicePowerOff = Self(rawValue: 0x15)
    public static let localHostTerminated = Self(rawValue: 0x16)
    public static let llResponseTimeout = Self(rawValue: 0x22)
    public static let micFailure = Self(rawValue: 0x3D)
    public static let connectionFailedToBeEstablished = Self(rawValue: 0x3E)

    public var isSuccess: Bool { rawValue == 0 }

    /// The spec's name, or `Unknown (0xNN)`.
    public var name: String { AssignedNumbers.controllerErrorName(rawValue) ?? "Unknown (\(Hex.code(rawValue)))" }

    /// `Connection Timeout (0x08)`; plain `Success` for 0x00.
    public var description: String { isSuccess ? name : "\(name) (\(Hex.code(rawValue)))" }
}
