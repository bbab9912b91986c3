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
    public var name: String { Self.names[rawValue] ?? "Unknown (\(Hex.code(rawValue)))" }

    /// `Connection Timeout (0x08)`; plain `Success` for 0x00.
    public var description: String { isSuccess ? name : "\(name) (\(Hex.code(rawValue)))" }

    /// Core v5.4 Vol 1 Part F §1.3 (names as BlueZ `monitor/packet.c error2str_table` words them
    /// where the spec has an LMP and an LL variant).
    static let names: [UInt8: String] = [
        0x00: "Success",
        0x01: "Unknown HCI Command",
        0x02: "Unknown Connection Identifier",
        0x03: "Hardware Failure",
        0x04: "Page Timeout",
        0x05: "Authentication Failure",
        0x06: "PIN or Key Missing",
        0x07: "Memory Capacity Exceeded",
        0x08: "Connection Timeout",
        0x09: "Connection Limit Exceeded",
        0x0A: "Synchronous Connection Limit to a Device Exceeded",
        0x0B: "Connection Already Exists",
        0x0C: "Command Disallowed",
        0x0D: "Connection Rejected due to Limited Resources",
        0x0E: "Connection Rejected due to Security Reasons",
        0x0F: "Connection Rejected due to Unacceptable BD_ADDR",
        0x10: "Connection Accept Timeout Exceeded",
        0x11: "Unsupported Feature or Parameter Value",
        0x12: "Invalid HCI Command Parameters",
        0x13: "Remote User Terminated Connection",
        0x14: "Remote Device Terminated Connection due to Low Resources",
        0x15: "Remote Device Terminated Connection due to Power Off",
        0x16: "Connection Terminated by Local Host",
        0x17: "Repeated Attempts",
        0x18: "Pairing Not Allowed",
        0x19: "Unknown LMP PDU",
        0x1A: "Unsupported Remote Feature",
        0x1B: "SCO Offset Rejected",
        0x1C: "SCO Interval Rejected",
        0x1D: "SCO Air Mode Rejected",
        0x1E: "Invalid LMP/LL Parameters",
        0x1F: "Unspecified Error",
        0x20: "Unsupported LMP/LL Parameter Value",
        0x21: "Role Change Not Allowed",
        0x22: "LMP/LL Response Timeout",
        0x23: "LMP Error Transaction Collision / LL Procedure Collision",
        0x24: "LMP PDU Not Allowed",
        0x25: "Encryption Mode Not Acceptable",
        0x26: "Link Key cannot be Changed",
        0x27: "Requested QoS Not Supported",
        0x28: "Instant Passed",
        0x29: "Pairing with Unit Key Not Supported",
        0x2A: "Different Transaction Collision",
        0x2B: "Reserved (0x2B)",
        0x2C: "QoS Unacceptable Parameter",
        0x2D: "QoS Rejected",
        0x2E: "Channel Classification Not Supported",
        0x2F: "Insufficient Security",
        0x30: "Parameter Out of Mandatory Range",
        0x31: "Reserved (0x31)",
        0x32: "Role Switch Pending",
        0x33: "Reserved (0x33)",
        0x34: "Reserved Slot Violation",
        0x35: "Role Switch Failed",
        0x36: "Extended Inquiry Response Too Large",
        0x37: "Secure Simple Pairing Not Supported by Host",
        0x38: "Host Busy - Pairing",
        0x39: "Connection Rejected due to No Suitable Channel Found",
        0x3A: "Controller Busy",
        0x3B: "Unacceptable Connection Parameters",
        0x3C: "Advertising Timeout",
        0x3D: "Connection Terminated due to MIC Failure",
        0x3E: "Connection Failed to be Established",
        0x3F: "MAC Connection Failed",
        0x40: "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging",
        0x41: "Type0 Submap Not Defined",
        0x42: "Unknown Advertising Identifier",
        0x43: "Limit Reached",
        0x44: "Operation Cancelled by Host",
        0x45: "Packet Too Long",
    ]
}
