import AssignedNumbers
import BLEBase

/// An HCI status / error code (Core v5.4 Vol 1 Part F §1.3, list of error codes): the status of
/// Command Complete / Command Status / connection events and the reason of a disconnection.
package struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let success = Self(rawValue: 0x00)
    package static let unknownConnectionIdentifier = Self(rawValue: 0x02)
    package static let connectionTimeout = Self(rawValue: 0x08)
    package static let commandDisallowed = Self(rawValue: 0x0C)
    package static let invalidCommandParameters = Self(rawValue: 0x12)
    package static let remoteUserTerminated = Self(rawValue: 0x13)
    package static let remoteDevicePowerOff = Self(rawValue: 0x15)
    package static let localHostTerminated = Self(rawValue: 0x16)
    package static let llResponseTimeout = Self(rawValue: 0x22)
    package static let micFailure = Self(rawValue: 0x3D)
    package static let connectionFailedToBeEstablished = Self(rawValue: 0x3E)

    package var isSuccess: Bool { rawValue == 0 }

    /// The spec's name, or `Unknown (0xNN)`.
    package var name: String { AssignedNumbers.controllerErrorName(rawValue) ?? "Unknown (\(Hex.code(rawValue)))" }

    /// `Connection Timeout (0x08)`; plain `Success` for 0x00.
    package var description: String { isSuccess ? name : "\(name) (\(Hex.code(rawValue)))" }
}
