import BLEBase

/// An HCI command opcode: OGF in the top 6 bits, OCF in the low 10 (Core v5.4 Vol 4 Part E §5.4.1).
///
/// ```
///  15        10 9                 0
/// +------------+-------------------+
/// |    OGF     |        OCF        |   u16, little-endian on the wire
/// +------------+-------------------+
/// ```
package struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
    }

    /// OpCode Group Field: 0x01 link control, 0x02 link policy, 0x03 controller & baseband,
    /// 0x04 informational, 0x05 status, 0x06 testing, 0x08 LE controller, 0x3F vendor.
    package var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    /// OpCode Command Field.
    package var ocf: UInt16 { rawValue & 0x03FF }

    /// Opcode 0x0000: Command Complete / Command Status with it only return command credits.
    package var isNOP: Bool { rawValue == 0 }
    package var isVendorSpecific: Bool { ogf == 0x3F }

    package static let nop = Self(rawValue: 0x0000)
    package static let disconnect = Self(rawValue: 0x0406)
    package static let readRemoteVersionInformation = Self(rawValue: 0x041D)
    package static let setEventMask = Self(rawValue: 0x0C01)
    package static let reset = Self(rawValue: 0x0C03)
    package static let readLocalVersionInformation = Self(rawValue: 0x1001)
    package static let readBDADDR = Self(rawValue: 0x1009)
    package static let leSetAdvertisingParameters = Self(rawValue: 0x2006)
    package static let leSetAdvertisingData = Self(rawValue: 0x2008)
    package static let leSetScanResponseData = Self(rawValue: 0x2009)
    package static let leSetAdvertisingEnable = Self(rawValue: 0x200A)
    package static let leSetScanParameters = Self(rawValue: 0x200B)
    package static let leSetScanEnable = Self(rawValue: 0x200C)
    package static let leCreateConnection = Self(rawValue: 0x200D)
    package static let leCreateConnectionCancel = Self(rawValue: 0x200E)
    package static let leAddDeviceToFilterAcceptList = Self(rawValue: 0x2011)
    package static let leConnectionUpdate = Self(rawValue: 0x2013)
    package static let leReadRemoteFeatures = Self(rawValue: 0x2016)
    package static let leEnableEncryption = Self(rawValue: 0x2019)
    package static let leLongTermKeyRequestReply = Self(rawValue: 0x201A)
    package static let leSetDataLength = Self(rawValue: 0x2022)
    package static let leSetPHY = Self(rawValue: 0x2032)
    package static let leSetExtendedScanParameters = Self(rawValue: 0x2041)
    package static let leSetExtendedScanEnable = Self(rawValue: 0x2042)
    package static let leExtendedCreateConnection = Self(rawValue: 0x2043)
    package static let leExtendedCreateConnectionV2 = Self(rawValue: 0x2085)

    /// The spec's command name; vendor commands as `Vendor Command (OCF 0x0123)`, others
    /// `Unknown (0xNNNN)`.
    package var name: String {
        if let known = Self.names[rawValue] { return known }
        if isVendorSpecific { return "Vendor Command (OCF \(Hex.code(ocf, width: 4)))" }
        return "Unknown (\(Hex.code(rawValue, width: 4)))"
    }

    package var description: String { Self.names[rawValue] == nil ? name : "\(name) (\(Hex.code(rawValue, width: 4)))" }
}
