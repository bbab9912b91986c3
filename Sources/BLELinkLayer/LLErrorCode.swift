import BLEAssignedNumbers
import BLEBase

/// Controller error codes as carried in LL_TERMINATE_IND, LL_REJECT_IND and friends
/// (Core v5.4 Vol 1 Part F §1.3; names as BlueZ `monitor/packet.c` prints them, ble-facts §7).
/// Names come from the table HCI statuses share (`AssignedNumbers.controllerErrorName`).
public struct LLErrorCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let connectionTimeout = Self(rawValue: 0x08)
    public static let remoteUserTerminated = Self(rawValue: 0x13)
    public static let localHostTerminated = Self(rawValue: 0x16)
    public static let micFailure = Self(rawValue: 0x3D)
    public static let connectionFailedToBeEstablished = Self(rawValue: 0x3E)

    public var name: String { AssignedNumbers.controllerErrorName(rawValue) ?? "Unknown (\(Hex.code(rawValue)))" }
}
