import BLEBase

/// An LL data payload fragment for the shared L2CAP reassembler, keyed by (access address,
/// direction). `isStart` is LLID 10 (Core v5.4 Vol 6 Part B §2.4: start of an L2CAP message).
public struct L2CAPFragment: Sendable, Equatable {
    public var accessAddress: UInt32
    public var direction: LinkDirection
    public var isStart: Bool
    public var bytes: [UInt8]

    public init(accessAddress: UInt32, direction: LinkDirection, isStart: Bool, bytes: [UInt8]) {
        self.accessAddress = accessAddress
        self.direction = direction
        self.isStart = isStart
        self.bytes = bytes
    }
}

/// Whether the CRC was right: the sniffer's verdict when it checked, else ours when the CRC
/// preset was known.
public enum CRCStatus: String, Sendable, Equatable {
    case valid, invalid, unknown
}

/// Per-packet observations the tracker makes.
public struct LinkLayerFlags: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let badCRC = LinkLayerFlags(rawValue: 1 << 0)
    /// Same SN and payload as the last packet accepted from that side, not yet acknowledged: a resend.
    public static let retransmission = LinkLayerFlags(rawValue: 1 << 1)
    /// Empty data PDU (LLID 01, Length 0).
    public static let empty = LinkLayerFlags(rawValue: 1 << 2)
    /// The payload is ciphertext.
    public static let encrypted = LinkLayerFlags(rawValue: 1 << 3)
    /// The direction was inferred from timing, not read from the pseudo-header.
    public static let directionInferred = LinkLayerFlags(rawValue: 1 << 4)
    /// The sniffer says it followed the encryption but could not decrypt this PDU (its MIC check
    /// failed, e.g. it lacked the key): the payload stays ciphertext.
    public static let notDecrypted = LinkLayerFlags(rawValue: 1 << 5)
    /// Attributed to no link: radio noise (an advertising access address with one or two bit
    /// errors, a data PDU on an advertising channel) or a data PDU on an access address no
    /// CONNECT_IND announced and nobody answered (yet). Not decoded above the link layer.
    public static let noise = LinkLayerFlags(rawValue: 1 << 6)
}

/// A connection as CONNECT_IND set it up (or as first seen, when the sniffer joined late).
public struct LLConnection: Sendable, Equatable {
    public var accessAddress: UInt32
    public var crcInit: UInt32?
    public var intervalUs: Int?
    public var supervisionTimeoutMs: Int?
    public var latency: UInt16?
    public var channelMap: [UInt8]?
    public var hopIncrement: UInt8?
    public var initiator: BluetoothAddress?
    public var initiatorType: AddressType?
    public var advertiser: BluetoothAddress?
    public var advertiserType: AddressType?
    public var startedUs: Int64

    /// From a CONNECT_IND (TxAdd types InitA, RxAdd types AdvA).
    public init(_ connect: ConnectIndication, header: AdvertisingHeader, timestampUs: Int64) {
        accessAddress = connect.accessAddress
        crcInit = connect.crcInit
        intervalUs = connect.intervalUs
        supervisionTimeoutMs = connect.timeoutMs
        latency = connect.latency
        channelMap = connect.channelMap
        hopIncrement = connect.hopIncrement
        initiator = connect.initA
        initiatorType = header.txAddressType
        advertiser = connect.advA
        advertiserType = header.rxAddressType
        startedUs = timestampUs
    }

    /// A connection whose CONNECT_IND the sniffer did not see.
    public init(joinedAccessAddress: UInt32, timestampUs: Int64) {
        accessAddress = joinedAccessAddress
        startedUs = timestampUs
    }
}

/// Connection-level happenings the pipeline reports.
public enum LinkLayerEvent: Sendable, Equatable {
    case connectionCreated(LLConnection)
    /// Data PDUs, answered, on an access address with no CONNECT_IND seen.
    case connectionJoined(accessAddress: UInt32)
    case encryptionStarted(accessAddress: UInt32)
    case connectionTerminated(accessAddress: UInt32, reason: LLErrorCode, sender: LinkDirection)
    /// Silent for longer than the tracker keeps connections; the state was dropped.
    case connectionExpired(accessAddress: UInt32, lastSeenUs: Int64)
}

/// What the tracker made of one air record.
public struct LinkLayerResult: Sendable, Equatable {
    public var timestampUs: Int64
    /// nil when the pseudo-header itself could not be read.
    public var metadata: AirPacketMetadata?
    /// nil when `error` is set.
    public var packet: LLPacket?
    public var error: DecodeError?
    public var crcStatus: CRCStatus = .unknown
    public var flags: LinkLayerFlags = []
    /// Data channel PDUs only.
    public var direction: LinkDirection?
    public var fragment: L2CAPFragment?
    public var events: [LinkLayerEvent] = []

    public init(timestampUs: Int64) { self.timestampUs = timestampUs }
}
