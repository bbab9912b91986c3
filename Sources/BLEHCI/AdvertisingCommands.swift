import BLEBase

/// Core v5.4 Vol 4 Part E §7.8.5 LE Set Advertising Parameters.
///
/// ```
/// +-------------+-------------+----------+----------+-----------+-----------+-------------+---------------+
/// | intervalMin | intervalMax | adv type | own type | peer type | peer addr | channel map | filter policy |
/// | u16 ×0.625  | u16 ×0.625  |    u8    |    u8    |    u8     |     6     |     u8      |      u8       |
/// +-------------+-------------+----------+----------+-----------+-----------+-------------+---------------+
/// ```
public struct LESetAdvertisingParametersCommand: Sendable, Equatable {
    public var advertisingIntervalMin: UInt16
    public var advertisingIntervalMax: UInt16
    /// 0 ADV_IND, 1 ADV_DIRECT_IND (high duty), 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 ADV_DIRECT_IND (low duty).
    public var advertisingType: UInt8
    public var ownAddressType: AddressType
    public var peerAddressType: AddressType
    public var peerAddress: BluetoothAddress
    public var advertisingChannelMap: UInt8
    public var advertisingFilterPolicy: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        advertisingIntervalMin = try r.readUInt16LE("Advertising_Interval_Min")
        advertisingIntervalMax = try r.readUInt16LE("Advertising_Interval_Max")
        advertisingType = try r.readUInt8("Advertising_Type")
        ownAddressType = AddressType(rawValue: try r.readUInt8("Own_Address_Type"))
        peerAddressType = AddressType(rawValue: try r.readUInt8("Peer_Address_Type"))
        peerAddress = try BluetoothAddress(parsing: &r)
        advertisingChannelMap = try r.readUInt8("Advertising_Channel_Map")
        advertisingFilterPolicy = try r.readUInt8("Advertising_Filter_Policy")
    }
}

/// Core v5.4 Vol 4 Part E §7.8.7 LE Set Advertising Data and §7.8.8 LE Set Scan Response Data:
/// a significant length, then always 31 data bytes of which the rest are padding.
///
/// ```
/// +--------+-----------------------------------+-------------------------+
/// | length | AD structures (length bytes)      | padding (31 − length)   |
/// |   u8   |                                   |                         |
/// +--------+-----------------------------------+-------------------------+
/// ```
public struct LESetAdvertisingDataCommand: Sendable, Equatable {
    public static let dataCapacity = 31

    public var dataLength: UInt8
    public var data: AdvertisingData

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        let at = r.reportedOffset
        dataLength = try r.readUInt8("Advertising_Data_Length")
        guard Int(dataLength) <= Self.dataCapacity else {
            throw DecodeError.invalid(layer: r.layer, field: "Advertising_Data_Length", at: at,
                                      reason: "\(dataLength) exceeds the 31-byte legacy advertising data")
        }
        var ad = try r.slice(byteCount: Int(dataLength), layer: .advertisingData, "Advertising_Data")
        data = AdvertisingData(parsing: &ad)
        try r.skip(Self.dataCapacity - Int(dataLength), "Advertising_Data padding")
    }
}
