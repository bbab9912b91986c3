import BLEBase

/// Core v5.4 Vol 4 Part E §7.8.10 LE Set Scan Parameters.
///
/// ```
/// +-----------+---------------+-------------+----------+---------------+
/// | scan type | scan interval | scan window | own type | filter policy |
/// |    u8     | u16 ×0.625 ms | u16 ×0.625  |    u8    |      u8       |
/// +-----------+---------------+-------------+----------+---------------+
/// ```
public struct LESetScanParametersCommand: Sendable, Equatable {
    /// 0 passive, 1 active.
    public var scanType: UInt8
    public var scanInterval: UInt16
    public var scanWindow: UInt16
    public var ownAddressType: AddressType
    public var scanningFilterPolicy: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        scanType = try r.readUInt8("LE_Scan_Type")
        scanInterval = try r.readUInt16LE("LE_Scan_Interval")
        scanWindow = try r.readUInt16LE("LE_Scan_Window")
        ownAddressType = AddressType(rawValue: try r.readUInt8("Own_Address_Type"))
        scanningFilterPolicy = try r.readUInt8("Scanning_Filter_Policy")
    }
}

/// Core v5.4 Vol 4 Part E §7.8.11 LE Set Scan Enable.
///
/// ```
/// +----------------+-------------------+
/// | LE_Scan_Enable | Filter_Duplicates |
/// |      u8        |        u8         |
/// +----------------+-------------------+
/// ```
public struct LESetScanEnableCommand: Sendable, Equatable {
    public var enable: UInt8
    public var filterDuplicates: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        enable = try r.readUInt8("LE_Scan_Enable")
        filterDuplicates = try r.readUInt8("Filter_Duplicates")
    }
}

/// Core v5.4 Vol 4 Part E §7.8.64 LE Set Extended Scan Parameters.
///
/// ```
/// +----------+---------------+---------------+----------------------------------------+
/// | own type | filter policy | scanning PHYs | per PHY (bit 0 LE 1M, bit 2 LE Coded): |
/// |    u8    |      u8       |    u8 mask    | scan type u8, interval u16, window u16 |
/// +----------+---------------+---------------+----------------------------------------+
/// ```
public struct LESetExtendedScanParametersCommand: Sendable, Equatable {
    public var ownAddressType: AddressType
    public var scanningFilterPolicy: UInt8
    public var scanningPHYs: UInt8
    public var phys: [PHYParameters]

    public struct PHYParameters: Sendable, Equatable {
        public var phy: LEPHY
        public var scanType: UInt8
        public var scanInterval: UInt16
        public var scanWindow: UInt16
    }

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        ownAddressType = AddressType(rawValue: try r.readUInt8("Own_Address_Type"))
        scanningFilterPolicy = try r.readUInt8("Scanning_Filter_Policy")
        scanningPHYs = try r.readUInt8("Scanning_PHYs")
        phys = []
        for phy in LEPHY.phys(inMask: scanningPHYs, allowed: [.le1M, .leCoded]) {
            let type = try r.readUInt8("Scan_Type")
            let interval = try r.readUInt16LE("Scan_Interval")
            phys.append(PHYParameters(phy: phy, scanType: type, scanInterval: interval,
                                      scanWindow: try r.readUInt16LE("Scan_Window")))
        }
    }
}

/// Core v5.4 Vol 4 Part E §7.8.65 LE Set Extended Scan Enable.
///
/// ```
/// +--------+-------------------+--------------+-------------+
/// | enable | filter duplicates | duration     | period      |
/// |   u8   |        u8         | u16 ×10 ms   | u16 ×1.28 s |
/// +--------+-------------------+--------------+-------------+
/// ```
public struct LESetExtendedScanEnableCommand: Sendable, Equatable {
    public var enable: UInt8
    public var filterDuplicates: UInt8
    public var duration: UInt16
    public var period: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        enable = try r.readUInt8("Enable")
        filterDuplicates = try r.readUInt8("Filter_Duplicates")
        duration = try r.readUInt16LE("Duration")
        period = try r.readUInt16LE("Period")
    }
}
