import BLEBase

/// Core v5.4 Vol 4 Part E §7.7.5 Disconnection Complete.
///
/// ```
/// +--------+-------------------+--------+
/// | Status | Connection_Handle | Reason |
/// |   u8   |       u16         |   u8   |
/// +--------+-------------------+--------+
/// ```
public struct DisconnectionCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    public var reason: HCIStatus

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        reason = HCIStatus(rawValue: try r.readUInt8("Reason"))
    }
}

/// Core v5.4 Vol 4 Part E §7.7.8 Encryption Change [v1] and §7.7.8.1 [v2] (adds the key size).
///
/// ```
/// +--------+-------------------+--------------------+----------------------------+
/// | Status | Connection_Handle | Encryption_Enabled | [v2] Encryption_Key_Size   |
/// |   u8   |       u16         |        u8          |           u8               |
/// +--------+-------------------+--------------------+----------------------------+
/// ```
public struct EncryptionChangeEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    /// 0 off; 1 on (E0 on BR/EDR, AES-CCM on LE); 2 AES-CCM on BR/EDR.
    public var encryptionEnabled: UInt8
    /// v2 only.
    public var encryptionKeySize: UInt8?

    public init(parsing r: inout ByteReader, version2: Bool) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        encryptionEnabled = try r.readUInt8("Encryption_Enabled")
        encryptionKeySize = version2 ? try r.readUInt8("Encryption_Key_Size") : nil
    }
}

/// Core v5.4 Vol 4 Part E §7.7.12 Read Remote Version Information Complete.
///
/// ```
/// +--------+-------------------+---------+------------------+------------+
/// | Status | Connection_Handle | Version | Company_Identifier| Subversion|
/// |   u8   |       u16         |   u8    |       u16        |    u16     |
/// +--------+-------------------+---------+------------------+------------+
/// ```
public struct ReadRemoteVersionInformationCompleteEvent: Sendable, Equatable {
    public var status: HCIStatus
    public var connectionHandle: UInt16
    /// LL/LMP version (Assigned Numbers: 0x0D = Core 5.4).
    public var version: UInt8
    public var companyIdentifier: UInt16
    public var subversion: UInt16

    public init(parsing r: inout ByteReader) throws(DecodeError) {
        status = HCIStatus(rawValue: try r.readUInt8("Status"))
        connectionHandle = try r.readUInt16LE("Connection_Handle")
        version = try r.readUInt8("Version")
        companyIdentifier = try r.readUInt16LE("Company_Identifier")
        subversion = try r.readUInt16LE("Subversion")
    }
}

/// One entry of Number Of Completed Packets (Core v5.4 Vol 4 Part E §7.7.19).
///
/// ```
/// +-------------+-----------------------------------------------+
/// | Num_Handles | Num_Handles × (Connection_Handle u16,         |
/// |     u8      |               Num_Completed_Packets u16)      |
/// +-------------+-----------------------------------------------+
/// ```
public struct CompletedPackets: Sendable, Equatable {
    public var connectionHandle: UInt16
    public var count: UInt16

    public init(connectionHandle: UInt16, count: UInt16) {
        self.connectionHandle = connectionHandle
        self.count = count
    }

    static func parseList(_ r: inout ByteReader) throws(DecodeError) -> CompletedPacketsList {
        let handles = try r.readUInt8("Num_Handles")
        var list = CompletedPacketsList()
        for _ in 0..<handles {
            let handle = try r.readUInt16LE("Connection_Handle")
            list.append(CompletedPackets(connectionHandle: handle, count: try r.readUInt16LE("Num_Completed_Packets")))
        }
        return list
    }
}

/// The handles of one Number Of Completed Packets event, in order. The first is stored inline:
/// an LE host with one link gets one per event, among a capture's commonest records, and an
/// array would cost an allocation for each.
public struct CompletedPacketsList: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    private var head: CompletedPackets?
    private var rest: [CompletedPackets] = []

    public init() {}

    public init(arrayLiteral elements: CompletedPackets...) {
        for element in elements { append(element) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { head == nil ? 0 : 1 + rest.count }

    public subscript(position: Int) -> CompletedPackets {
        if position == 0, let head { return head }
        return rest[position - 1]
    }

    public mutating func append(_ element: CompletedPackets) {
        if head == nil { head = element } else { rest.append(element) }
    }
}
