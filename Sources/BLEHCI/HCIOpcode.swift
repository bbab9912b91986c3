import BLEBase

/// An HCI command opcode: OGF in the top 6 bits, OCF in the low 10 (Core v5.4 Vol 4 Part E §5.4.1).
///
/// ```
///  15        10 9                 0
/// +------------+-------------------+
/// |    OGF     |        OCF        |   u16, little-endian on the wire
/// +------------+-------------------+
/// ```
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
    }

    /// OpCode Group Field: 0x01 link control, 0x02 link policy, 0x03 controller & baseband,
    /// 0x04 informational, 0x05 status, 0x06 testing, 0x08 LE controller, 0x3F vendor.
    public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    /// OpCode Command Field.
    public var ocf: UInt16 { rawValue & 0x03FF }

    /// Opcode 0x0000: Command Complete / Command Status with it only return command credits.
    public var isNOP: Bool { rawValue == 0 }
    public var isVendorSpecific: Bool { ogf == 0x3F }
    /// OGF 0x3E: reserved for Bluetooth Logo Testing (§5.4.1), neither vendor nor standard.
    public var isLogoTesting: Bool { ogf == 0x3E }
    /// OGF 0x3D: not assigned by Core; BTstack's daemon and its client library exchange commands
    /// of this group, which never reach a controller (BTstack src/btstack_defines.h, `OGF_BTSTACK`).
    public var isBTstackDaemon: Bool { ogf == 0x3D }

    public static let nop = Self(rawValue: 0x0000)
    public static let disconnect = Self(rawValue: 0x0406)
    public static let readRemoteVersionInformation = Self(rawValue: 0x041D)
    public static let setEventMask = Self(rawValue: 0x0C01)
    public static let reset = Self(rawValue: 0x0C03)
    public static let readLocalVersionInformation = Self(rawValue: 0x1001)
    public static let readBDADDR = Self(rawValue: 0x1009)
    public static let leSetAdvertisingParameters = Self(rawValue: 0x2006)
    public static let leSetAdvertisingData = Self(rawValue: 0x2008)
    public static let leSetScanResponseData = Self(rawValue: 0x2009)
    public static let leSetAdvertisingEnable = Self(rawValue: 0x200A)
    public static let leSetScanParameters = Self(rawValue: 0x200B)
    public static let leSetScanEnable = Self(rawValue: 0x200C)
    public static let leCreateConnection = Self(rawValue: 0x200D)
    public static let leCreateConnectionCancel = Self(rawValue: 0x200E)
    public static let leAddDeviceToFilterAcceptList = Self(rawValue: 0x2011)
    public static let leConnectionUpdate = Self(rawValue: 0x2013)
    public static let leReadRemoteFeatures = Self(rawValue: 0x2016)
    public static let leEnableEncryption = Self(rawValue: 0x2019)
    public static let leLongTermKeyRequestReply = Self(rawValue: 0x201A)
    public static let leSetDataLength = Self(rawValue: 0x2022)
    public static let leSetPHY = Self(rawValue: 0x2032)
    public static let leSetExtendedScanParameters = Self(rawValue: 0x2041)
    public static let leSetExtendedScanEnable = Self(rawValue: 0x2042)
    public static let leExtendedCreateConnection = Self(rawValue: 0x2043)
    public static let leExtendedCreateConnectionV2 = Self(rawValue: 0x2085)

    /// The spec's command name; vendor commands as `Vendor Command (OCF 0x0123)`, others
    /// `Unknown (0xNNNN)`.
    public var name: String {
        if let known = Self.names[rawValue] { return known }
        if isVendorSpecific { return "Vendor Command (OCF \(Hex.code(ocf, width: 4)))" }
        return "Unknown (\(Hex.code(rawValue, width: 4)))"
    }

    public var description: String { Self.names[rawValue] == nil ? name : "\(name) (\(Hex.code(rawValue, width: 4)))" }
}
