import BLEBase

/// Controller error codes as carried in LL_TERMINATE_IND, LL_REJECT_IND and friends
/// (Core v5.4 Vol 1 Part F §1.3; names as BlueZ `monitor/packet.c` prints them, ble-facts §7).
/// The HCI module has its own copy; the two are to be merged into one shared table.
public struct LLErrorCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let connectionTimeout = Self(rawValue: 0x08)
    public static let remoteUserTerminated = Self(rawValue: 0x13)
    public static let localHostTerminated = Self(rawValue: 0x16)
    public static let micFailure = Self(rawValue: 0x3D)
    public static let connectionFailedToBeEstablished = Self(rawValue: 0x3E)

    public var name: String {
        let index = Int(rawValue)
        return index < Self.names.count ? Self.names[index] : "Unknown (\(Hex.code(rawValue)))"
    }

    /// Indexed by code, 0x00–0x45.
    private static let names: [String] = [
        "Success", "Unknown HCI Command", "Unknown Connection Identifier", "Hardware Failure",  // 0x00
        "Page Timeout", "Authentication Failure", "PIN or Key Missing", "Memory Capacity Exceeded",  // 0x04
        "Connection Timeout", "Connection Limit Exceeded",  // 0x08
        "Synchronous Connection Limit to a Device Exceeded", "Connection Already Exists",  // 0x0A
        "Command Disallowed", "Rejected (Limited Resources)", "Rejected (Security Reasons)",  // 0x0C
        "Rejected (Unacceptable BD_ADDR)",  // 0x0F
        "Connection Accept Timeout Exceeded", "Unsupported Feature or Parameter Value",  // 0x10
        "Invalid HCI Command Parameters", "Remote User Terminated Connection",  // 0x12
        "Remote Device Terminated (Low Resources)", "Remote Device Terminated (Power Off)",  // 0x14
        "Connection Terminated By Local Host", "Repeated Attempts",  // 0x16
        "Pairing Not Allowed", "Unknown LMP PDU", "Unsupported Remote Feature", "SCO Offset Rejected",  // 0x18
        "SCO Interval Rejected", "SCO Air Mode Rejected", "Invalid LMP/LL Parameters", "Unspecified Error",  // 0x1C
        "Unsupported LMP/LL Parameter Value", "Role Change Not Allowed", "LMP/LL Response Timeout",  // 0x20
        "LMP Error Transaction Collision",  // 0x23
        "LMP PDU Not Allowed", "Encryption Mode Not Acceptable", "Link Key Cannot Be Changed",  // 0x24
        "Requested QoS Not Supported",  // 0x27
        "Instant Passed", "Pairing With Unit Key Not Supported", "Different Transaction Collision",  // 0x28
        "Reserved (0x2B)",  // 0x2B
        "QoS Unacceptable Parameter", "QoS Rejected", "Channel Classification Not Supported",  // 0x2C
        "Insufficient Security",  // 0x2F
        "Parameter Out of Mandatory Range", "Reserved (0x31)", "Role Switch Pending", "Reserved (0x33)",  // 0x30
        "Reserved Slot Violation", "Role Switch Failed", "Extended Inquiry Response Too Large",  // 0x34
        "Secure Simple Pairing Not Supported by Host",  // 0x37
        "Host Busy - Pairing", "Connection Rejected (No Suitable Channel Found)", "Controller Busy",  // 0x38
        "Unacceptable Connection Parameters",  // 0x3B
        "Advertising Timeout", "Terminated due to MIC Failure", "Connection Failed to be Established",  // 0x3C
        "MAC Connection Failed",  // 0x3F
        "Coarse Clock Adjustment Rejected", "Type0 Submap Not Defined", "Unknown Advertising Identifier",  // 0x40
        "Limit Reached",  // 0x43
        "Operation Cancelled by Host", "Packet Too Long",  // 0x44
    ]
}
