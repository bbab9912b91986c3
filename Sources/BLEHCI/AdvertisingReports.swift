import BLEBase

/// A legacy advertising PDU type as LE Advertising Report numbers it (Core v5.4 Vol 4 Part E §7.7.65.2).
public struct LegacyAdvertisingEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let advInd = Self(rawValue: 0x00)
    public static let advDirectInd = Self(rawValue: 0x01)
    public static let advScanInd = Self(rawValue: 0x02)
    public static let advNonconnInd = Self(rawValue: 0x03)
    public static let scanRsp = Self(rawValue: 0x04)

    public var name: String {
        switch rawValue {
        case 0x00: return "ADV_IND"
        case 0x01: return "ADV_DIRECT_IND"
        case 0x02: return "ADV_SCAN_IND"
        case 0x03: return "ADV_NONCONN_IND"
        case 0x04: return "SCAN_RSP"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }

    public var description: String { name }
}

/// One report of LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2). Reports follow each
/// other whole (§5.2: array parameters are sent element by element), and RSSI comes AFTER the data.
///
/// ```
/// +-------------+---------------------------------------------------------------------------+
/// | Num_Reports | Num_Reports × +------------+-----------+---------+--------+--------+------+ |
/// |     u8      |               | Event_Type | addr type | address | length | data   | RSSI | |
/// |             |               |     u8     |    u8     |    6    |   u8   | length |  i8  | |
/// |             |               +------------+-----------+---------+--------+--------+------+ |
/// +-------------+---------------------------------------------------------------------------+
/// ```
public struct LEAdvertisingReport: Sendable, Equatable {
    public var eventType: LegacyAdvertisingEventType
    public var addressType: AddressType
    public var address: BluetoothAddress
    /// The Data field as carried, in the record's bytes: parsed when asked for (`data`), so that
    /// a layer that saw the same bytes from the address before need not parse them again.
    public let dataBytes: ByteReader
    /// dBm; 127 when not available.
    public var rssi: Int8

    /// The Data field's AD structures.
    public var data: AdvertisingData {
        var reader = dataBytes
        return AdvertisingData(parsing: &reader)
    }

    public static let maxDataLength = 31
    /// RSSI and TX power value meaning "not available" in every advertising report.
    public static let notAvailable: Int8 = 127

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        eventType = LegacyAdvertisingEventType(rawValue: try r.readUInt8("Event_Type"))
        addressType = AddressType(rawValue: try r.readUInt8("Address_Type"))
        address = try BluetoothAddress(parsing: &r)
        let at = r.reportedOffset
        let length = try r.readUInt8("Data_Length")
        guard Int(length) <= Self.maxDataLength else {
            throw DecodeError.invalid(layer: r.layer, field: "Data_Length", at: at,
                                      reason: "\(length) exceeds the 31-byte legacy advertising data")
        }
        dataBytes = try r.slice(byteCount: Int(length), layer: .advertisingData, "Data")
        rssi = try r.readInt8("RSSI")
    }

    /// Equal when the fields and the Data bytes are.
    public static func == (a: Self, b: Self) -> Bool {
        a.eventType == b.eventType && a.addressType == b.addressType && a.address == b.address && a.rssi == b.rssi
            && a.dataBytes.unreadBytes.elementsEqual(b.dataBytes.unreadBytes)
    }

    static func parseList(_ r: inout ByteReader) throws(DecodeError) -> [LEAdvertisingReport] {
        let count = try r.readUInt8("Num_Reports")
        var reports: [LEAdvertisingReport] = []
        for _ in 0..<count { reports.append(try LEAdvertisingReport(parsing: &r)) }
        return reports
    }
}

/// One report of LE Directed Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.11).
///
/// ```
/// +------------+-----------+---------+------------------+----------------+------+
/// | Event_Type | addr type | address | direct addr type | direct address | RSSI |
/// |  u8 (0x01) |    u8     |    6    |        u8        |       6        |  i8  |
/// +------------+-----------+---------+------------------+----------------+------+
/// ```
public struct LEDirectedAdvertisingReport: Sendable, Equatable {
    public var eventType: LegacyAdvertisingEventType
    public var addressType: AddressType
    public var address: BluetoothAddress
    public var directAddressType: AddressType
    public var directAddress: BluetoothAddress
    public var rssi: Int8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        eventType = LegacyAdvertisingEventType(rawValue: try r.readUInt8("Event_Type"))
        addressType = AddressType(rawValue: try r.readUInt8("Address_Type"))
        address = try BluetoothAddress(parsing: &r)
        directAddressType = AddressType(rawValue: try r.readUInt8("Direct_Address_Type"))
        directAddress = try BluetoothAddress(parsing: &r)
        rssi = try r.readInt8("RSSI")
    }

    static func parseList(_ r: inout ByteReader) throws(DecodeError) -> [LEDirectedAdvertisingReport] {
        let count = try r.readUInt8("Num_Reports")
        var reports: [LEDirectedAdvertisingReport] = []
        for _ in 0..<count { reports.append(try LEDirectedAdvertisingReport(parsing: &r)) }
        return reports
    }
}

/// The 16-bit event type of an extended advertising report (Core v5.4 Vol 4 Part E §7.7.65.13):
/// property bits 0–4 and the data status in bits 5–6.
public struct ExtendedAdvertisingEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public var isConnectable: Bool { rawValue & 0x0001 != 0 }
    public var isScannable: Bool { rawValue & 0x0002 != 0 }
    public var isDirected: Bool { rawValue & 0x0004 != 0 }
    public var isScanResponse: Bool { rawValue & 0x0008 != 0 }
    public var isLegacy: Bool { rawValue & 0x0010 != 0 }
    public var dataStatus: ExtendedAdvertisingDataStatus {
        ExtendedAdvertisingDataStatus(rawValue: UInt8(truncatingIfNeeded: rawValue >> 5) & 0x03)
    }

    /// The same properties with another data status.
    public func with(dataStatus: ExtendedAdvertisingDataStatus) -> Self {
        Self(rawValue: rawValue & ~0x0060 | UInt16(dataStatus.rawValue & 0x03) << 5)
    }

    /// Legacy PDU names for the combinations §7.7.65.13 allows with bit 4 set; otherwise the
    /// property words (`connectable scannable directed scan-response`, or `non-connectable`).
    public var name: String {
        if isLegacy {
            switch rawValue & 0x1F {
            case 0x13: return "ADV_IND"
            case 0x15: return "ADV_DIRECT_IND"
            case 0x12: return "ADV_SCAN_IND"
            case 0x10: return "ADV_NONCONN_IND"
            case 0x1B: return "SCAN_RSP to ADV_IND"
            case 0x1A: return "SCAN_RSP to ADV_SCAN_IND"
            default: return "legacy (\(Hex.code(rawValue & 0x1F)))"
            }
        }
        var words: [String] = []
        if isConnectable { words.append("connectable") }
        if isScannable { words.append("scannable") }
        if isDirected { words.append("directed") }
        if isScanResponse { words.append("scan-response") }
        return words.isEmpty ? "non-connectable" : words.joined(separator: " ")
    }

    public var description: String { name }
}

/// Bits 5–6 of the extended advertising event type.
public struct ExtendedAdvertisingDataStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let complete = Self(rawValue: 0)
    public static let incomplete = Self(rawValue: 1)
    public static let truncated = Self(rawValue: 2)

    public var name: String {
        switch rawValue {
        case 0: return "complete"
        case 1: return "incomplete, more to come"
        case 2: return "incomplete, truncated"
        default: return "Unknown (\(Hex.code(rawValue)))"
        }
    }

    public var description: String { name }
}

/// One report of LE Extended Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.13).
///
/// ```
/// +------------+-----------+---------+-------------+---------------+-----+----------+------+
/// | Event_Type | addr type | address | primary PHY | secondary PHY | SID | TX_Power | RSSI |
/// |    u16     |    u8     |    6    |     u8      |      u8       | u8  |    i8    |  i8  |
/// +------------+-----------+---------+-------------+---------------+-----+----------+------+
/// +---------------------+------------------+----------------+--------+-------------+
/// | periodic interval   | direct addr type | direct address | length | data        |
/// | u16 ×1.25 ms        |        u8        |       6        |   u8   | length      |
/// +---------------------+------------------+----------------+--------+-------------+
/// ```
public struct LEExtendedAdvertisingReport: Sendable, Equatable {
    public var eventType: ExtendedAdvertisingEventType
    public var addressType: AddressType
    public var address: BluetoothAddress
    public var primaryPHY: LEPHY
    public var secondaryPHY: LEPHY
    /// 0x00–0x0F; 0xFF when no ADI field was present.
    public var advertisingSID: UInt8
    /// dBm; 127 when not available.
    public var txPower: Int8
    /// dBm; 127 when not available.
    public var rssi: Int8
    public var periodicAdvertisingInterval: UInt16
    public var directAddressType: AddressType
    public var directAddress: BluetoothAddress
    /// This fragment's data bytes (joined fragments after `ExtendedAdvertisingAssembler`).
    public var data: [UInt8]

    public init(eventType: ExtendedAdvertisingEventType, addressType: AddressType, address: BluetoothAddress,
                primaryPHY: LEPHY, secondaryPHY: LEPHY, advertisingSID: UInt8, txPower: Int8, rssi: Int8,
                periodicAdvertisingInterval: UInt16, directAddressType: AddressType,
                directAddress: BluetoothAddress, data: [UInt8]) {
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.advertisingSID = advertisingSID
        self.txPower = txPower
        self.rssi = rssi
        self.periodicAdvertisingInterval = periodicAdvertisingInterval
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.data = data
    }

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        eventType = ExtendedAdvertisingEventType(rawValue: try r.readUInt16LE("Event_Type"))
        addressType = AddressType(rawValue: try r.readUInt8("Address_Type"))
        address = try BluetoothAddress(parsing: &r)
        primaryPHY = LEPHY(rawValue: try r.readUInt8("Primary_PHY"))
        secondaryPHY = LEPHY(rawValue: try r.readUInt8("Secondary_PHY"))
        advertisingSID = try r.readUInt8("Advertising_SID")
        txPower = try r.readInt8("TX_Power")
        rssi = try r.readInt8("RSSI")
        periodicAdvertisingInterval = try r.readUInt16LE("Periodic_Advertising_Interval")
        directAddressType = AddressType(rawValue: try r.readUInt8("Direct_Address_Type"))
        directAddress = try BluetoothAddress(parsing: &r)
        let length = try r.readUInt8("Data_Length")
        data = try r.readBytes(Int(length), "Data")
    }

    /// The AD structures of `data`. Only meaningful once the data is complete: a fragment with
    /// more to come ends mid-structure (join fragments with `ExtendedAdvertisingAssembler`).
    public var advertisingData: AdvertisingData {
        var reader = ByteReader(data, layer: .advertisingData)
        return AdvertisingData(parsing: &reader)
    }

    static func parseList(_ r: inout ByteReader) throws(DecodeError) -> [LEExtendedAdvertisingReport] {
        let count = try r.readUInt8("Num_Reports")
        var reports: [LEExtendedAdvertisingReport] = []
        for _ in 0..<count { reports.append(try LEExtendedAdvertisingReport(parsing: &r)) }
        return reports
    }
}
