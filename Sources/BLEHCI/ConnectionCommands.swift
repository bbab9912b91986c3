import BLEBase

/// The connection parameter block shared by LE Create Connection, LE Extended Create
/// Connection and LE Connection Update (Core v5.4 Vol 4 Part E §7.8.12).
///
/// ```
/// +-------------+-------------+-------------+-------------+-------------+-------------+
/// | intervalMin | intervalMax | maxLatency  | supervision | minCELength | maxCELength |
/// | u16 ×1.25ms | u16 ×1.25ms | u16 events  | u16 ×10 ms  | u16 ×0.625  | u16 ×0.625  |
/// +-------------+-------------+-------------+-------------+-------------+-------------+
/// ```
public struct ConnectionParameterRange: Sendable, Equatable {
    public var connectionIntervalMin: UInt16
    public var connectionIntervalMax: UInt16
    public var maxLatency: UInt16
    public var supervisionTimeout: UInt16
    public var minCELength: UInt16
    public var maxCELength: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionIntervalMin = try r.readUInt16LE("Connection_Interval_Min")
        connectionIntervalMax = try r.readUInt16LE("Connection_Interval_Max")
        maxLatency = try r.readUInt16LE("Max_Latency")
        supervisionTimeout = try r.readUInt16LE("Supervision_Timeout")
        minCELength = try r.readUInt16LE("Min_CE_Length")
        maxCELength = try r.readUInt16LE("Max_CE_Length")
    }

    public var connectionIntervalMinMicroseconds: Int { Int(connectionIntervalMin) * HCITime.connectionIntervalUnit }
    public var connectionIntervalMaxMicroseconds: Int { Int(connectionIntervalMax) * HCITime.connectionIntervalUnit }
    public var supervisionTimeoutMicroseconds: Int { Int(supervisionTimeout) * HCITime.supervisionTimeoutUnit }
}

/// Core v5.4 Vol 4 Part E §7.1.6 Disconnect.
///
/// ```
/// +-------------------+--------+
/// | Connection_Handle | Reason |
/// |       u16         |   u8   |
/// +-------------------+--------+
/// ```
public struct DisconnectCommand: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var reason: HCIStatus

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        reason = HCIStatus(rawValue: try r.readUInt8("Reason"))
    }
}

/// Core v5.4 Vol 4 Part E §7.8.12 LE Create Connection (25 bytes).
///
/// ```
/// +--------------+-------------+---------------+-----------+-----------+-----------+------------------------+
/// | scanInterval | scanWindow  | filter policy | peer type | peer addr | own type  | ConnectionParameterRange|
/// | u16 ×0.625ms | u16 ×0.625ms|      u8       |    u8     |    6      |    u8     |        12 bytes        |
/// +--------------+-------------+---------------+-----------+-----------+-----------+------------------------+
/// ```
public struct LECreateConnectionCommand: Sendable, Equatable {
    public var scanInterval: UInt16
    public var scanWindow: UInt16
    /// 0: use the peer address; 1: use the Filter Accept List.
    public var initiatorFilterPolicy: UInt8
    public var peerAddressType: AddressType
    public var peerAddress: BluetoothAddress
    public var ownAddressType: AddressType
    public var connection: ConnectionParameterRange

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        scanInterval = try r.readUInt16LE("LE_Scan_Interval")
        scanWindow = try r.readUInt16LE("LE_Scan_Window")
        initiatorFilterPolicy = try r.readUInt8("Initiator_Filter_Policy")
        peerAddressType = AddressType(rawValue: try r.readUInt8("Peer_Address_Type"))
        peerAddress = try BluetoothAddress(parsing: &r)
        ownAddressType = AddressType(rawValue: try r.readUInt8("Own_Address_Type"))
        connection = try ConnectionParameterRange(parsing: &r)
    }
}

/// Core v5.4 Vol 4 Part E §7.8.66 LE Extended Create Connection (v1 0x2043, v2 0x2085).
///
/// ```
/// +-----------+-----------+---------------+----------+-----------+-----------+----------------+---------------------+
/// | [v2: adv  | [v2: sub- | filter policy | own type | peer type | peer addr | initiatingPHYs | per PHY (bit order):|
/// |  handle]  |  event]   |      u8       |    u8    |    u8     |     6     | u8 bit0 1M,    | scan interval u16,  |
/// |    u8     |    u8     |               |          |           |           | bit1 2M,       | scan window u16,    |
/// |           |           |               |          |           |           | bit2 Coded     | + 12-byte range     |
/// +-----------+-----------+---------------+----------+-----------+-----------+----------------+---------------------+
/// ```
public struct LEExtendedCreateConnectionCommand: Sendable, Equatable {
    /// Present in v2 only (PAwR).
    public var advertisingHandle: UInt8?
    public var subevent: UInt8?
    public var initiatorFilterPolicy: UInt8
    public var ownAddressType: AddressType
    public var peerAddressType: AddressType
    public var peerAddress: BluetoothAddress
    public var initiatingPHYs: UInt8
    public var phys: [PHYParameters]

    public struct PHYParameters: Sendable, Equatable {
        public var phy: LEPHY
        public var scanInterval: UInt16
        public var scanWindow: UInt16
        public var connection: ConnectionParameterRange
    }

    public init(parsing r: inout ByteReader, version2: Bool) throws(DecodeError) {
        if version2 {
            advertisingHandle = try r.readUInt8("Advertising_Handle")
            subevent = try r.readUInt8("Subevent")
        }
        initiatorFilterPolicy = try r.readUInt8("Initiator_Filter_Policy")
        ownAddressType = AddressType(rawValue: try r.readUInt8("Own_Address_Type"))
        peerAddressType = AddressType(rawValue: try r.readUInt8("Peer_Address_Type"))
        peerAddress = try BluetoothAddress(parsing: &r)
        initiatingPHYs = try r.readUInt8("Initiating_PHYs")
        phys = []
        for phy in LEPHY.phys(inMask: initiatingPHYs, allowed: [.le1M, .le2M, .leCoded]) {
            let interval = try r.readUInt16LE("Scan_Interval")
            let window = try r.readUInt16LE("Scan_Window")
            phys.append(PHYParameters(phy: phy, scanInterval: interval, scanWindow: window,
                                      connection: try ConnectionParameterRange(parsing: &r)))
        }
    }
}

/// Core v5.4 Vol 4 Part E §7.8.18 LE Connection Update.
///
/// ```
/// +-------------------+------------------------------+
/// | Connection_Handle | ConnectionParameterRange     |
/// |       u16         |          12 bytes            |
/// +-------------------+------------------------------+
/// ```
public struct LEConnectionUpdateCommand: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var connection: ConnectionParameterRange

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        connection = try ConnectionParameterRange(parsing: &r)
    }
}

/// Core v5.4 Vol 4 Part E §7.8.33 LE Set Data Length.
///
/// ```
/// +-------------------+-----------+---------+
/// | Connection_Handle | TX_Octets | TX_Time |
/// |       u16         |    u16    | u16 µs  |
/// +-------------------+-----------+---------+
/// ```
public struct LESetDataLengthCommand: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var txOctets: UInt16
    public var txTime: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        txOctets = try r.readUInt16LE("TX_Octets")
        txTime = try r.readUInt16LE("TX_Time")
    }
}

/// Core v5.4 Vol 4 Part E §7.8.49 LE Set PHY.
///
/// ```
/// +-------------------+----------+---------+---------+-------------+
/// | Connection_Handle | All_PHYs | TX_PHYs | RX_PHYs | PHY_Options |
/// |       u16         |    u8    | u8 mask | u8 mask |     u16     |
/// +-------------------+----------+---------+---------+-------------+
/// ```
public struct LESetPHYCommand: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var allPHYs: UInt8
    public var txPHYs: UInt8
    public var rxPHYs: UInt8
    public var phyOptions: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        allPHYs = try r.readUInt8("All_PHYs")
        txPHYs = try r.readUInt8("TX_PHYs")
        rxPHYs = try r.readUInt8("RX_PHYs")
        phyOptions = try r.readUInt16LE("PHY_Options")
    }
}

/// Core v5.4 Vol 4 Part E §7.8.24 LE Enable Encryption.
///
/// ```
/// +-------------------+-------------+------------+------------------+
/// | Connection_Handle | Random_Num  | Encrypted_ | Long_Term_Key    |
/// |       u16         |  u64        | Diversifier|   16 bytes       |
/// |                   |             |    u16     |                  |
/// +-------------------+-------------+------------+------------------+
/// ```
public struct LEEnableEncryptionCommand: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var randomNumber: UInt64
    public var encryptedDiversifier: UInt16
    /// As on the wire (least significant byte first).
    public var longTermKey: [UInt8]

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        randomNumber = try r.readUInt64LE("Random_Number")
        encryptedDiversifier = try r.readUInt16LE("Encrypted_Diversifier")
        longTermKey = try r.readBytes(16, "Long_Term_Key")
    }
}

/// Core v5.4 Vol 4 Part E §7.8.25 LE Long Term Key Request Reply.
///
/// ```
/// +-------------------+------------------+
/// | Connection_Handle | Long_Term_Key    |
/// |       u16         |   16 bytes       |
/// +-------------------+------------------+
/// ```
public struct LELongTermKeyRequestReplyCommand: Sendable, Equatable {
    public var connectionHandle: UInt16
    /// As on the wire (least significant byte first).
    public var longTermKey: [UInt8]

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        longTermKey = try r.readBytes(16, "Long_Term_Key")
    }
}
