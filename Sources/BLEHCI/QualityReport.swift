import BLEBase

/// The common part of an Android Bluetooth Quality Report (BQR): a Vendor Specific event (0xFF)
/// whose first parameter is the sub-event code 0x58 (`HCI_VSE_SUBCODE_BQR_SUB_EVT` in AOSP's
/// Bluetooth stack), then the report, little-endian (AOSP framework
/// android/bluetooth/BluetoothQualityReport.java, `BqrCommon`). Only the fields up to the RSSI
/// are read: the ones a link's notice names.
public struct QualityReport: Sendable, Equatable {
    /// The sub-event code Android controllers put first in a BQR vendor event.
    public static let subeventCode: UInt8 = 0x58

    /// Quality report ID (`BqrCommon.mQualityReportId`): 0x01 monitor, 0x02 approaching link
    /// supervision timeout, 0x03 A2DP choppy, 0x04 SCO choppy, 0x08 connect fail.
    public struct ReportID: RawRepresentable, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let monitor = Self(rawValue: 0x01)
        public static let approachingLSTO = Self(rawValue: 0x02)
        public static let a2dpChoppy = Self(rawValue: 0x03)
        public static let scoChoppy = Self(rawValue: 0x04)
        public static let connectFail = Self(rawValue: 0x08)

        /// The framework's names (`qualityReportIdToString`), `Unknown (0xNN)` otherwise.
        public var name: String {
            switch self {
            case .monitor: "Quality monitor"
            case .approachingLSTO: "Approaching LSTO"
            case .a2dpChoppy: "A2DP choppy"
            case .scoChoppy: "SCO choppy"
            case .connectFail: "Connect fail"
            default: "Unknown (\(Hex.code(rawValue)))"
            }
        }
    }

    public var reportID: ReportID
    public var packetType: UInt8
    /// The link the report is about (12 bits of the 16 carried, as in any HCI handle).
    public var connectionHandle: UInt16
    public var role: UInt8
    public var txPowerLevel: UInt8
    /// dBm, signed.
    public var rssi: Int8
    /// −127 dBm is the floor of the RSSI range controllers report (−127 to +20 dBm, Core v5.4
    /// Vol 4 Part E §7.7.65.2): no signal above it was measured, rather than a weak one.
    public var heardNothing: Bool { rssi == -127 }

    /// Reads a Vendor Specific event's parameters; nil when they are not a BQR (another sub-event
    /// code) or too short for the fields read here.
    public init?(vendorParameters parameters: [UInt8]) {
        var r = ByteReader(parameters, layer: .hci)
        guard (try? r.readUInt8("sub-event code")) == Self.subeventCode,
              let id = try? r.readUInt8("Quality_Report_Id"),
              let packetType = try? r.readUInt8("Packet_Types"),
              let handle = try? r.readUInt16LE("Connection_Handle"),
              let role = try? r.readUInt8("Connection_Role"),
              let txPower = try? r.readUInt8("TX_Power_Level"),
              let rssi = try? r.readInt8("RSSI") else { return nil }
        reportID = ReportID(rawValue: id)
        self.packetType = packetType
        connectionHandle = handle & 0x0FFF
        self.role = role
        txPowerLevel = txPower
        self.rssi = rssi
    }
}
