import BLEBase

/// An LL data payload fragment for the shared L2CAP reassembler, keyed by (access address,
/// direction). `isStart` is LLID 10 (Core v5.4 Vol 6 Part B §2.4: start of an L2CAP message).
package struct L2CAPFragment: Sendable, Equatable {
    package var accessAddress: UInt32
    package var direction: LinkDirection
    package var isStart: Bool
    package var bytes: [UInt8]

    package init(accessAddress: UInt32, direction: LinkDirection, isStart: Bool, bytes: [UInt8]) {
        self.accessAddress = accessAddress
        self.direction = direction
        self.isStart = isStart
        self.bytes = bytes
    }
}

/// Whether the CRC was right: the sniffer's verdict when it checked, else ours when the CRC
/// preset was known.
package enum CRCStatus: String, Sendable, Equatable {
    case valid, invalid, unknown
}

/// Per-packet observations the tracker makes.
package struct LinkLayerFlags: OptionSet, Sendable, Hashable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let badCRC = LinkLayerFlags(rawValue: 1 << 0)
    /// Same SN and payload as the last packet accepted from that side, not yet acknowledged: a resend.
    package static let retransmission = LinkLayerFlags(rawValue: 1 << 1)
    /// Empty data PDU (LLID 01, Length 0).
    package static let empty = LinkLayerFlags(rawValue: 1 << 2)
    /// The payload is ciphertext.
    package static let encrypted = LinkLayerFlags(rawValue: 1 << 3)
    /// The direction was inferred from timing, not read from the pseudo-header.
    package static let directionInferred = LinkLayerFlags(rawValue: 1 << 4)
    /// The sniffer says it followed the encryption but could not decrypt this PDU (its MIC check
    /// failed, e.g. it lacked the key): the payload stays ciphertext.
    package static let notDecrypted = LinkLayerFlags(rawValue: 1 << 5)
    /// Attributed to no link: radio noise (an advertising access address with one or two bit
    /// errors, a data PDU on an advertising channel) or a data PDU on an access address no
    /// CONNECT_IND announced and nobody answered (yet). Not decoded above the link layer.
    package static let noise = LinkLayerFlags(rawValue: 1 << 6)
}

/// A connection as CONNECT_IND set it up (or as first seen, when the sniffer joined late).
package struct LLConnection: Sendable, Equatable {
    package var accessAddress: UInt32
    package var crcInit: UInt32?
    package var intervalUs: Int?
    package var supervisionTimeoutMs: Int?
    package var latency: UInt16?
    package var channelMap: [UInt8]?
    package var hopIncrement: UInt8?
    package var initiator: BluetoothAddress?
    package var initiatorType: AddressType?
    package var advertiser: BluetoothAddress?
    package var advertiserType: AddressType?
    package var startedUs: Int64

    /// From a CONNECT_IND (TxAdd types InitA, RxAdd types AdvA).
    package init(_ connect: ConnectIndication, header: AdvertisingHeader, timestampUs: Int64) {
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
    package init(joinedAccessAddress: UInt32, timestampUs: Int64) {
        accessAddress = joinedAccessAddress
        startedUs = timestampUs
    }
}

/// Connection-level happenings the pipeline reports.
package enum LinkLayerEvent: Sendable, Equatable {
    case connectionCreated(LLConnection)
    /// Data PDUs, answered, on an access address with no CONNECT_IND seen.
    case connectionJoined(accessAddress: UInt32)
    case encryptionStarted(accessAddress: UInt32)
    case connectionTerminated(accessAddress: UInt32, reason: LLErrorCode, sender: LinkDirection)
    /// Silent for longer than the tracker keeps connections; the state was dropped.
    case connectionExpired(accessAddress: UInt32, lastSeenUs: Int64)
}

/// What the tracker made of one air record.
package struct LinkLayerResult: Sendable, Equatable {
    package var timestampUs: Int64
    /// nil when the pseudo-header itself could not be read.
    package var metadata: AirPacketMetadata?
    /// nil when `error` is set.
    package var packet: LLPacket?
    package var error: DecodeError?
    package var crcStatus: CRCStatus = .unknown
    package var flags: LinkLayerFlags = []
    /// Data channel PDUs only.
    package var direction: LinkDirection?
    package var fragment: L2CAPFragment?
    package var events: [LinkLayerEvent] = []

    package init(timestampUs: Int64) { self.timestampUs = timestampUs }
}
