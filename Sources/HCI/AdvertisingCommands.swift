import BLEBase

/// Core v5.4 Vol 4 Part E §7.8.5 LE Set Advertising Parameters.
///
/// ```
/// +-------------+-------------+----------+----------+-----------+-----------+-------------+---------------+
/// | intervalMin | intervalMax | adv type | own type | peer type | peer addr | channel map | filter policy |
/// | u16 ×0.625  | u16 ×0.625  |    u8    |    u8    |    u8     |     6     |     u8      |      u8       |
/// +-------------+-------------+----------+----------+-----------+-----------+-------------+---------------+
/// ```
package struct LESetAdvertisingParametersCommand: Sendable, Equatable {
    package var advertisingIntervalMin: UInt16
    package var advertisingIntervalMax: UInt16
    /// 0 ADV_IND, 1 ADV_DIRECT_IND (high duty), 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 ADV_DIRECT_IND (low duty).
    package var advertisingType: UInt8
    package var ownAddressType: AddressType
    package var peerAddressType: AddressType
    package var peerAddress: BluetoothAddress
    package var advertisingChannelMap: UInt8
    package var advertisingFilterPolicy: UInt8

    package init(parsing r: inout ByteReader) throws(DecodeError) {
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
package struct LESetAdvertisingDataCommand: Sendable, Equatable {
    package static let dataCapacity = 31

    package var dataLength: UInt8
    package var data: AdvertisingData

    package init(parsing r: inout ByteReader) throws(DecodeError) {
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
