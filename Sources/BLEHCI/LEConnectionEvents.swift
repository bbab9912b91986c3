import BLEBase

/// LE Connection Complete (Core v5.4 Vol 4 Part E §7.7.65.1), LE Enhanced Connection Complete
/// [v1] (§7.7.65.10, adds the two resolvable private addresses) and [v2] (subevent 0x29, adds
/// the advertising and sync handles): one type, so connection tracking handles all three alike.
///
/// ```
/// +--------+--------+------+-----------+-----------+--------------+--------------+
/// | Status | Handle | Role | peer type | peer addr | [0x0A/0x29]  | [0x0A/0x29]  |
/// |   u8   |  u16   |  u8  |    u8     |     6     | local RPA 6  | peer RPA 6   |
/// +--------+--------+------+-----------+-----------+--------------+--------------+
/// +--------------+--------------+--------------+----------------+--------------+-------------+
/// | interval     | latency      | supervision  | clock accuracy | [0x29] adv   | [0x29] sync |
/// | u16 ×1.25 ms | u16 events   | u16 ×10 ms   |       u8       | handle u8    | handle u16  |
/// +--------------+--------------+--------------+----------------+--------------+-------------+
/// ```
public struct LEConnectionCompleteEvent: Sendable, Equatable {
    public var subevent: LESubeventCode
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var role: LERole
    public var peerAddressType: AddressType
    public var peerAddress: BluetoothAddress
    /// Enhanced (0x0A, 0x29) only; 00:00:00:00:00:00 when the controller did not use one.
    public var localResolvablePrivateAddress: BluetoothAddress?
    public var peerResolvablePrivateAddress: BluetoothAddress?
    public var connectionInterval: UInt16
    public var peripheralLatency: UInt16
    public var supervisionTimeout: UInt16
    public var centralClockAccuracy: UInt8
    /// v2 (0x29) only.
    public var advertisingHandle: UInt8?
    public var syncHandle: UInt16?

    public init(parsing r: inout ByteReader, subevent: LESubeventCode) throws(DecodeError) {
        self.subevent = subevent
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        role = LERole(rawValue: try r.readUInt8("Role"))
        peerAddressType = AddressType(rawValue: try r.readUInt8("Peer_Address_Type"))
        peerAddress = try BluetoothAddress(parsing: &r)
        if subevent != .connectionComplete {
            localResolvablePrivateAddress = try BluetoothAddress(parsing: &r)
            peerResolvablePrivateAddress = try BluetoothAddress(parsing: &r)
        }
        connectionInterval = try r.readUInt16LE("Connection_Interval")
        peripheralLatency = try r.readUInt16LE("Peripheral_Latency")
        supervisionTimeout = try r.readUInt16LE("Supervision_Timeout")
        centralClockAccuracy = try r.readUInt8("Central_Clock_Accuracy")
        if subevent == .enhancedConnectionCompleteV2 {
            advertisingHandle = try r.readUInt8("Advertising_Handle")
            syncHandle = try r.readUInt16LE("Sync_Handle")
        }
    }

    public var connectionIntervalMicroseconds: Int { Int(connectionInterval) * HCITime.connectionIntervalUnit }
    public var supervisionTimeoutMicroseconds: Int { Int(supervisionTimeout) * HCITime.supervisionTimeoutUnit }
}

/// Core v5.4 Vol 4 Part E §7.7.65.3 LE Connection Update Complete.
///
/// ```
/// +--------+--------+--------------+------------+--------------+
/// | Status | Handle | interval     | latency    | supervision  |
/// |   u8   |  u16   | u16 ×1.25 ms | u16 events | u16 ×10 ms   |
/// +--------+--------+--------------+------------+--------------+
/// ```
public struct LEConnectionUpdateCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var connectionInterval: UInt16
    public var peripheralLatency: UInt16
    public var supervisionTimeout: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        connectionInterval = try r.readUInt16LE("Connection_Interval")
        peripheralLatency = try r.readUInt16LE("Peripheral_Latency")
        supervisionTimeout = try r.readUInt16LE("Supervision_Timeout")
    }

    public var connectionIntervalMicroseconds: Int { Int(connectionInterval) * HCITime.connectionIntervalUnit }
    public var supervisionTimeoutMicroseconds: Int { Int(supervisionTimeout) * HCITime.supervisionTimeoutUnit }
}

/// Core v5.4 Vol 4 Part E §7.7.65.4 LE Read Remote Features Complete.
///
/// ```
/// +--------+--------+---------------------------+
/// | Status | Handle | LE_Features (u64 bit mask)|
/// +--------+--------+---------------------------+
/// ```
public struct LEReadRemoteFeaturesCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var leFeatures: UInt64

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        leFeatures = try r.readUInt64LE("LE_Features")
    }
}

/// Core v5.4 Vol 4 Part E §7.7.65.5 LE Long Term Key Request.
///
/// ```
/// +--------+---------------+-----------------------+
/// | Handle | Random_Number | Encrypted_Diversifier |
/// |  u16   |      u64      |          u16          |
/// +--------+---------------+-----------------------+
/// ```
public struct LELongTermKeyRequestEvent: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var randomNumber: UInt64
    public var encryptedDiversifier: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        randomNumber = try r.readUInt64LE("Random_Number")
        encryptedDiversifier = try r.readUInt16LE("Encrypted_Diversifier")
    }
}

/// Core v5.4 Vol 4 Part E §7.7.65.6 LE Remote Connection Parameter Request.
///
/// ```
/// +--------+--------------+--------------+-------------+-------------+
/// | Handle | interval min | interval max | max latency | supervision |
/// |  u16   | u16 ×1.25 ms | u16 ×1.25 ms |     u16     | u16 ×10 ms  |
/// +--------+--------------+--------------+-------------+-------------+
/// ```
public struct LERemoteConnectionParameterRequestEvent: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var intervalMin: UInt16
    public var intervalMax: UInt16
    public var maxLatency: UInt16
    public var supervisionTimeout: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        intervalMin = try r.readUInt16LE("Interval_Min")
        intervalMax = try r.readUInt16LE("Interval_Max")
        maxLatency = try r.readUInt16LE("Max_Latency")
        supervisionTimeout = try r.readUInt16LE("Timeout")
    }
}

/// Core v5.4 Vol 4 Part E §7.7.65.7 LE Data Length Change.
///
/// ```
/// +--------+---------------+-------------+---------------+-------------+
/// | Handle | Max_TX_Octets | Max_TX_Time | Max_RX_Octets | Max_RX_Time |
/// |  u16   |      u16      |   u16 µs    |      u16      |   u16 µs    |
/// +--------+---------------+-------------+---------------+-------------+
/// ```
public struct LEDataLengthChangeEvent: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var maxTxOctets: UInt16
    public var maxTxTime: UInt16
    public var maxRxOctets: UInt16
    public var maxRxTime: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        maxTxOctets = try r.readUInt16LE("Max_TX_Octets")
        maxTxTime = try r.readUInt16LE("Max_TX_Time")
        maxRxOctets = try r.readUInt16LE("Max_RX_Octets")
        maxRxTime = try r.readUInt16LE("Max_RX_Time")
    }
}

/// Core v5.4 Vol 4 Part E §7.7.65.12 LE PHY Update Complete.
///
/// ```
/// +--------+--------+--------+--------+
/// | Status | Handle | TX_PHY | RX_PHY |
/// |   u8   |  u16   |   u8   |   u8   |
/// +--------+--------+--------+--------+
/// ```
public struct LEPHYUpdateCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var txPHY: LEPHY
    public var rxPHY: LEPHY

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        txPHY = LEPHY(rawValue: try r.readUInt8("TX_PHY"))
        rxPHY = LEPHY(rawValue: try r.readUInt8("RX_PHY"))
    }
}

/// Core v5.4 Vol 4 Part E §7.7.65.18 LE Advertising Set Terminated.
///
/// ```
/// +--------+--------------------+-------------------+-------------------------------------+
/// | Status | Advertising_Handle | Connection_Handle | Num_Completed_Ext_Advertising_Events|
/// |   u8   |         u8         |       u16         |                 u8                  |
/// +--------+--------------------+-------------------+-------------------------------------+
/// ```
public struct LEAdvertisingSetTerminatedEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var advertisingHandle: UInt8
    /// Meaningful when the set ended because a connection was created (status 0x00).
    public var connectionHandle: UInt16
    public var numCompletedExtendedAdvertisingEvents: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        advertisingHandle = try r.readUInt8("Advertising_Handle")
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        numCompletedExtendedAdvertisingEvents = try r.readUInt8("Num_Completed_Extended_Advertising_Events")
    }
}

/// Core v5.4 Vol 4 Part E §7.7.65.20 LE Channel Selection Algorithm.
///
/// ```
/// +--------+-----------------------------+
/// | Handle | Channel_Selection_Algorithm |
/// |  u16   |  u8: 0 = #1, 1 = #2         |
/// +--------+-----------------------------+
/// ```
public struct LEChannelSelectionAlgorithmEvent: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var channelSelectionAlgorithm: UInt8

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        channelSelectionAlgorithm = try r.readUInt8("Channel_Selection_Algorithm")
    }
}
