import BLEBase

/// An HCI event code (Core v5.4 Vol 4 Part E §7.7).
public struct HCIEventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let disconnectionComplete = Self(rawValue: 0x05)
    public static let encryptionChangeV1 = Self(rawValue: 0x08)
    public static let readRemoteVersionInformationComplete = Self(rawValue: 0x0C)
    public static let commandComplete = Self(rawValue: 0x0E)
    public static let commandStatus = Self(rawValue: 0x0F)
    public static let hardwareError = Self(rawValue: 0x10)
    public static let numberOfCompletedPackets = Self(rawValue: 0x13)
    public static let dataBufferOverflow = Self(rawValue: 0x1A)
    public static let encryptionKeyRefreshComplete = Self(rawValue: 0x30)
    public static let leMeta = Self(rawValue: 0x3E)
    public static let encryptionChangeV2 = Self(rawValue: 0x59)
    /// Vendor-specific debug events (Vol 4 Part E §5.4.4); Broadcom and Qualcomm phones log many.
    public static let vendorSpecific = Self(rawValue: 0xFF)

    /// Codes from 0x60 below 0xFF, which Core v5.4 does not assign: BTstack's daemon sends its
    /// clients events there (`BTSTACK_EVENT_STATE` 0x60 onwards, BTstack src/btstack_defines.h),
    /// and its dumps record them beside the controller's.
    public var isBTstackDaemon: Bool { rawValue >= 0x60 && rawValue != 0xFF }

    /// Unknown codes say they are events: `Unknown Event (0x60)`.
    public var name: String { Self.names[rawValue] ?? "Unknown Event (\(Hex.code(rawValue)))" }
    public var description: String { Self.names[rawValue] == nil ? name : "\(name) (\(Hex.code(rawValue)))" }

    /// Core v5.4 Vol 4 Part E §7.7; the AMP events 0x40–0x4D as Core v5.2 named them.
    static let names: [UInt8: String] = [
        0x01: "Inquiry Complete",
        0x02: "Inquiry Result",
        0x03: "Connection Complete",
        0x04: "Connection Request",
        0x05: "Disconnection Complete",
        0x06: "Authentication Complete",
        0x07: "Remote Name Request Complete",
        0x08: "Encryption Change [v1]",
        0x09: "Change Connection Link Key Complete",
        0x0A: "Link Key Type Changed",
        0x0B: "Read Remote Supported Features Complete",
        0x0C: "Read Remote Version Information Complete",
        0x0D: "QoS Setup Complete",
        0x0E: "Command Complete",
        0x0F: "Command Status",
        0x10: "Hardware Error",
        0x11: "Flush Occurred",
        0x12: "Role Change",
        0x13: "Number Of Completed Packets",
        0x14: "Mode Change",
        0x15: "Return Link Keys",
        0x16: "PIN Code Request",
        0x17: "Link Key Request",
        0x18: "Link Key Notification",
        0x19: "Loopback Command",
        0x1A: "Data Buffer Overflow",
        0x1B: "Max Slots Change",
        0x1C: "Read Clock Offset Complete",
        0x1D: "Connection Packet Type Changed",
        0x1E: "QoS Violation",
        0x1F: "Page Scan Mode Change",
        0x20: "Page Scan Repetition Mode Change",
        0x21: "Flow Specification Complete",
        0x22: "Inquiry Result with RSSI",
        0x23: "Read Remote Extended Features Complete",
        0x2C: "Synchronous Connection Complete",
        0x2D: "Synchronous Connection Changed",
        0x2E: "Sniff Subrating",
        0x2F: "Extended Inquiry Result",
        0x30: "Encryption Key Refresh Complete",
        0x31: "IO Capability Request",
        0x32: "IO Capability Response",
        0x33: "User Confirmation Request",
        0x34: "User Passkey Request",
        0x35: "Remote OOB Data Request",
        0x36: "Simple Pairing Complete",
        0x38: "Link Supervision Timeout Changed",
        0x39: "Enhanced Flush Complete",
        0x3B: "User Passkey Notification",
        0x3C: "Keypress Notification",
        0x3D: "Remote Host Supported Features Notification",
        0x3E: "LE Meta",
        0x40: "Physical Link Complete",
        0x41: "Channel Selected",
        0x42: "Disconnection Physical Link Complete",
        0x43: "Physical Link Loss Early Warning",
        0x44: "Physical Link Recovery",
        0x45: "Logical Link Complete",
        0x46: "Disconnection Logical Link Complete",
        0x47: "Flow Spec Modify Complete",
        0x48: "Number Of Completed Data Blocks",
        0x49: "AMP Start Test",
        0x4A: "AMP Test End",
        0x4B: "AMP Receiver Report",
        0x4C: "Short Range Mode Change Complete",
        0x4D: "AMP Status Change",
        0x4E: "Triggered Clock Capture",
        0x4F: "Synchronization Train Complete",
        0x50: "Synchronization Train Received",
        0x51: "Connectionless Peripheral Broadcast Receive",
        0x52: "Connectionless Peripheral Broadcast Timeout",
        0x53: "Truncated Page Complete",
        0x54: "Peripheral Page Response Timeout",
        0x55: "Connectionless Peripheral Broadcast Channel Map Change",
        0x56: "Inquiry Response Notification",
        0x57: "Authenticated Payload Timeout Expired",
        0x58: "SAM Status Change",
        0x59: "Encryption Change [v2]",
        0xFF: "Vendor Specific",
    ]
}

/// An LE Meta event subevent code (Core v5.4 Vol 4 Part E §7.7.65).
public struct LESubeventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let connectionComplete = Self(rawValue: 0x01)
    public static let advertisingReport = Self(rawValue: 0x02)
    public static let connectionUpdateComplete = Self(rawValue: 0x03)
    public static let readRemoteFeaturesComplete = Self(rawValue: 0x04)
    public static let longTermKeyRequest = Self(rawValue: 0x05)
    public static let remoteConnectionParameterRequest = Self(rawValue: 0x06)
    public static let dataLengthChange = Self(rawValue: 0x07)
    public static let enhancedConnectionCompleteV1 = Self(rawValue: 0x0A)
    public static let directedAdvertisingReport = Self(rawValue: 0x0B)
    public static let phyUpdateComplete = Self(rawValue: 0x0C)
    public static let extendedAdvertisingReport = Self(rawValue: 0x0D)
    public static let advertisingSetTerminated = Self(rawValue: 0x12)
    public static let channelSelectionAlgorithm = Self(rawValue: 0x14)
    public static let enhancedConnectionCompleteV2 = Self(rawValue: 0x29)

    public var name: String { Self.names[rawValue] ?? "Unknown (\(Hex.code(rawValue)))" }
    public var description: String { Self.names[rawValue] == nil ? name : "\(name) (\(Hex.code(rawValue)))" }

    /// Core v5.4 Vol 4 Part E §7.7.65.1–§7.7.65.41.
    static let names: [UInt8: String] = [
        0x01: "LE Connection Complete",
        0x02: "LE Advertising Report",
        0x03: "LE Connection Update Complete",
        0x04: "LE Read Remote Features Complete",
        0x05: "LE Long Term Key Request",
        0x06: "LE Remote Connection Parameter Request",
        0x07: "LE Data Length Change",
        0x08: "LE Read Local P-256 Public Key Complete",
        0x09: "LE Generate DHKey Complete",
        0x0A: "LE Enhanced Connection Complete [v1]",
        0x0B: "LE Directed Advertising Report",
        0x0C: "LE PHY Update Complete",
        0x0D: "LE Extended Advertising Report",
        0x0E: "LE Periodic Advertising Sync Established [v1]",
        0x0F: "LE Periodic Advertising Report [v1]",
        0x10: "LE Periodic Advertising Sync Lost",
        0x11: "LE Scan Timeout",
        0x12: "LE Advertising Set Terminated",
        0x13: "LE Scan Request Received",
        0x14: "LE Channel Selection Algorithm",
        0x15: "LE Connectionless IQ Report",
        0x16: "LE Connection IQ Report",
        0x17: "LE CTE Request Failed",
        0x18: "LE Periodic Advertising Sync Transfer Received [v1]",
        0x19: "LE CIS Established",
        0x1A: "LE CIS Request",
        0x1B: "LE Create BIG Complete",
        0x1C: "LE Terminate BIG Complete",
        0x1D: "LE BIG Sync Established",
        0x1E: "LE BIG Sync Lost",
        0x1F: "LE Request Peer SCA Complete",
        0x20: "LE Path Loss Threshold",
        0x21: "LE Transmit Power Reporting",
        0x22: "LE BIGInfo Advertising Report",
        0x23: "LE Subrate Change",
        0x24: "LE Periodic Advertising Sync Established [v2]",
        0x25: "LE Periodic Advertising Report [v2]",
        0x26: "LE Periodic Advertising Sync Transfer Received [v2]",
        0x27: "LE Periodic Advertising Subevent Data Request",
        0x28: "LE Periodic Advertising Response Report",
        0x29: "LE Enhanced Connection Complete [v2]",
    ]
}
