import AssignedNumbers
import BLEBase

/// Controller error codes as carried in LL_TERMINATE_IND, LL_REJECT_IND and friends
/// (Core v5.4 Vol 1 Part F §1.3; names as BlueZ `monitor/packet.c` prints them, ble-facts §7).
/// Names come from the table HCI statuses share (`AssignedNumbers.controllerErrorName`).
package struct LLErrorCode: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let connectionTimeout = Self(rawValue: 0x08)
    package static let remoteUserTerminated = Self(rawValue: 0x13)
    package static let localHostTerminated = Self(rawValue: 0x16)
    package static let micFailure = Self(rawValue: 0x3D)
    package static let connectionFailedToBeEstablished = Self(rawValue: 0x3E)

    package var name: String { AssignedNumbers.controllerErrorName(rawValue) ?? "Unknown (\(Hex.code(rawValue)))" }
}
