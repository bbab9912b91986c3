#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ATT
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding

/// A device: every address seen for it (merged by identity), what it advertised, and its links.
public struct Device: Sendable {
    public var id: String
    public var addresses: [DeviceAddress]
    /// What tied several addresses together, or the identity a profile extracted.
    public var identity: DeviceIdentity?
    public var names: [String]
    public var companyIDs: [UInt16]
    public var serviceUUIDs: [BluetoothUUID]
    public var txPower: Int8?
    public var advertisements: Int
    public var firstSeenUs: Int64?
    public var lastSeenUs: Int64?
    public var connectionIDs: [String]
    public var gatt: [GATTAttribute]
}

/// One address of a device and how it was seen.
public struct DeviceAddress: Sendable {
    public var address: BluetoothAddress
    public var type: AddressKind
    public var advertisements: Int
    public var scanResponses: Int
    public var rssi: RSSIStatistics?
    public var firstSeenUs: Int64?
    public var lastSeenUs: Int64?
    /// Advertising in bursts: runs of advertisements less than `AdvertisingBursts.gapUs` apart.
    public var bursts: [AdvertisingBurst]
}

/// A run of advertisements from one address with no gap over `AdvertisingBursts.gapUs`.
public struct AdvertisingBurst: Sendable, Equatable {
    public var startUs: Int64
    public var endUs: Int64
    public var count: Int
    public var rssiMin: Int?
    public var rssiMax: Int?
}

/// The address type as the report names it: public, or random with its sub-type
/// (Core v5.4 Vol 6 Part B §1.3).
public enum AddressKind: String, Sendable {
    case publicAddress = "public"
    case randomStatic = "random-static"
    case randomResolvable = "random-resolvable"
    case randomNonResolvable = "random-non-resolvable"
    case publicIdentity = "public-identity"
    case randomIdentity = "random-identity"
    case unknown

    public init(_ type: AddressType, _ address: BluetoothAddress) {
        switch type {
        case .publicDevice: self = .publicAddress
        case .publicIdentity: self = .publicIdentity
        case .randomIdentity: self = .randomIdentity
        case .randomDevice:
            switch address.randomSubType {
            case .staticAddress: self = .randomStatic
            case .resolvablePrivate: self = .randomResolvable
            case .nonResolvablePrivate: self = .randomNonResolvable
            case .reserved: self = .unknown
            }
        default: self = .unknown
        }
    }
}

/// RSSI over a device's advertisements: min, median, max in dBm.
public struct RSSIStatistics: Sendable, Equatable {
    public var min: Int
    public var median: Int
    public var max: Int
    public var count: Int
}

public struct DeviceIdentity: Sendable, Equatable, Hashable {
    public var value: String
    /// Where it came from: `smp-identity-address`, `enhanced-connection-complete`, `profile NAME: …`.
    public var source: String

    public init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}

/// A connection and what became of it.
public struct Connection: Sendable {
    public var id: String
    public var deviceID: String?
    public var link: LinkID
    public var handle: UInt16?
    public var accessAddress: UInt32?
    public var peerAddress: BluetoothAddress?
    public var peerAddressType: AddressType?
    public var role: Role
    /// The LE Create Connection (or CONNECT_IND) that started it, when seen.
    public var createUs: Int64?
    public var startUs: Int64
    public var startRecord: Int
    public var endUs: Int64?
    public var endRecord: Int?
    public var disconnectReason: HCIStatus?
    public var initiator: DisconnectInitiator?
    public var completeEvent: String
    public var parameters: [ConnectionParameters]
    public var mtu: Int
    public var dataLength: (tx: Int, rx: Int)?
    public var phy: (tx: String, rx: String)?
    public var encrypted: Bool
    public var lastActivityUs: Int64
    public var transactions: [ATTTransaction]
    /// Handle Value Notifications with their values, listed as transactions are (`--transactions
    /// all`, same caps) but apart: they answer nothing and are no transaction of the report.
    public var notifications: [ATTTransaction] = []
    public var transactionTotals: TransactionTotals
    public var subscriptions: [Subscription]
    /// Over the air: the CRC preset of the link (CONNECT_IND's CRCInit).
    public var crcInit: UInt32?
    /// Over the air: the central (CONNECT_IND's InitA); `peerAddress` is the peripheral.
    public var centralAddress: BluetoothAddress?
    public var centralAddressType: AddressType?
    /// Values that need no answer (notifications, Write Commands), counted per handle.
    public var valueCounts: [ValueCountKey: Int]
    /// When the client ran GATT discovery on this link (first and last discovery request).
    public var discovery: (startUs: Int64, endUs: Int64)?
    /// Why the end is inferred rather than seen, when it is: the host's Disconnect with no
    /// completion captured, or silence over the air.
    public var endInferred: String? = nil
    /// Discoveries after the first (a new primary-service discovery from handle 0x0001).
    public var rediscoveries: [(startUs: Int64, endUs: Int64)] = []
    /// Pairings and encryption changes on this link, in time order.
    public var security = ConnectionSecurity()
    public var dangling: Bool { endUs == nil }
    /// `le` or `br-edr`: which link the connection is (LE Connection Complete or CONNECT_IND, or
    /// the BR/EDR Connection Complete).
    public var transport: Transport = .le
    /// Traffic on a link whose completion event the capture lacks: the capture began (or the
    /// sniffer joined) while it was up; it starts at its first record.
    public var startedBeforeCapture = false
    /// The ATT bearers that carried ATT on the link, in the order they were first used.
    public var bearers: [ATTBearer] = []
    /// The GATT database learned on a link whose peer the capture never named (a link begun
    /// before the capture); a known peer's database is its device's (`Device.gatt`).
    public var gatt: [GATTAttribute] = []
    /// L2CAP channels whose traffic is not analysed (RFCOMM, SDP, AVDTP…), by PSM, or by CID
    /// when the capture lacks the channel's opening.
    public var channels: [ChannelUse] = []

    public enum Role: String, Sendable { case central, peripheral, unknown }
    public enum Transport: String, Sendable { case le, brEdr = "br-edr" }
}

/// One ATT bearer of a connection (Core v5.4 Vol 3 Part F §3.2.11): the LE fixed channel, an
/// L2CAP channel for PSM 0x001F on BR/EDR, or an enhanced ATT channel (PSM 0x0027).
public struct ATTBearer: Sendable, Equatable {
    public enum Kind: String, Sendable { case attFixed = "att-fixed", attBREDR = "att-br-edr", eatt }
    public var kind: Kind
    /// nil on the fixed channel.
    public var psm: UInt16?
    public var localCID: UInt16
    public var remoteCID: UInt16

    public init(kind: Kind, psm: UInt16?, localCID: UInt16, remoteCID: UInt16) {
        self.kind = kind
        self.psm = psm
        self.localCID = localCID
        self.remoteCID = remoteCID
    }
}

/// Traffic on one L2CAP channel that bledecode names but does not decode.
public struct ChannelUse: Sendable, Equatable {
    /// nil when the capture lacks the channel's opening (or for a fixed channel).
    public var psm: UInt16?
    /// The channel's CID as the capture's side knows it (or the one seen, when its opening is missing).
    public var cid: UInt16
    public var packets: Int
    public var bytes: Int
    public var firstUs: Int64
    public var lastUs: Int64
}

public enum DisconnectInitiator: String, Sendable {
    case localHost = "local-host", remote, controller, unknown
}

/// Interval, latency and supervision timeout at a point in time (Core v5.4 Vol 6 Part B §4.5).
public struct ConnectionParameters: Sendable, Equatable {
    public var timeUs: Int64
    public var intervalUs: Int
    public var latency: Int
    public var supervisionTimeoutMs: Int
}

/// Which unanswered values a count is about: opcode and handle.
public struct ValueCountKey: Hashable, Sendable, Comparable {
    public var opcode: UInt8
    public var handle: UInt16
    public static func < (a: Self, b: Self) -> Bool { (a.handle, a.opcode) < (b.handle, b.opcode) }
}

/// A CCCD write: notifications/indications turned on or off for a characteristic.
public struct Subscription: Sendable, Equatable {
    public var timeUs: Int64
    public var cccdHandle: UInt16
    public var characteristic: String
    public var notifications: Bool
    public var indications: Bool
}

/// A connection attempt that did not become a connection.
public struct ConnectionAttempt: Sendable {
    public enum Outcome: String, Sendable { case failed, cancelled, neverCompleted = "never-completed", rejected }
    public var peerAddress: BluetoothAddress?
    public var deviceID: String?
    public var createUs: Int64
    public var endUs: Int64?
    public var outcome: Outcome
    public var status: HCIStatus?
}

/// An ATT request and its answer (Core v5.4 Vol 3 Part F §3.3: one outstanding request per
/// bearer and direction; 30 s transaction timeout).
public struct ATTTransaction: Sendable {
    public enum Outcome: String, Sendable {
        case ok, error, timeout, noResponse = "no-response", noResponseExpected = "no-response-expected"
    }
    public var opcode: ATTOpcode
    public var handle: UInt16?
    /// What `handle` is, resolved from the device's GATT database: `Battery Level (2A19)`.
    public var attribute: String?
    public var direction: Direction
    public var requestUs: Int64
    public var requestRecord: Int
    public var responseUs: Int64?
    public var responseRecord: Int?
    public var responseOpcode: ATTOpcode?
    public var outcome: Outcome
    public var errorCode: ATTErrorCode?
    /// The value the request carried (a write, a notification or indication; long writes joined
    /// from Prepare Write), when the transaction is listed.
    public var value: [UInt8]?
    /// The value the response carried (a read; long reads joined from Read Blob), its first
    /// `valueCap` bytes, and its whole length; listed transactions only.
    public var responseValue: [UInt8]?
    public var responseValueLength: Int?
    public var latencyUs: Int64? { responseUs.map { $0 - requestUs } }

    /// Bytes of a response's value kept in a listed transaction.
    public static let valueCap = 64
}

/// Counts and latency per (opcode, handle), kept even when transactions are not listed.
public struct TransactionTotals: Sendable {
    public struct Key: Hashable, Sendable, Comparable {
        public var opcode: UInt8
        public var handle: UInt16?
        public static func < (a: Key, b: Key) -> Bool { (a.handle ?? 0, a.opcode) < (b.handle ?? 0, b.opcode) }
    }
    public struct Aggregate: Sendable {
        public var count = 0
        /// Error responses other than the Attribute Not Found that ends a discovery procedure.
        public var errors = 0
        /// Attribute Not Found ending a discovery procedure: normal, not a failure.
        public var discoveryEnds = 0
        public var unanswered = 0
        public var latencies = LatencySketch()
    }
    public var byKey: [Key: Aggregate] = [:]

    /// Freezes every latency sketch (see `LatencySketch.freeze`), changing the values in place.
    mutating func freezeLatencies() {
        var index = byKey.startIndex
        while index != byKey.endIndex {
            byKey.values[index].latencies.freeze()
            byKey.formIndex(after: &index)
        }
    }
}

/// Latency min/median/max with bounded memory: exact up to 4096 samples, then a log-bucket
/// histogram (1 µs to ~1 h in 5 % steps). The first two samples are the minimum and maximum, so
/// `samples` is only allocated from the third on.
public struct LatencySketch: Sendable {
    private var samples: [Int64] = []
    private var buckets: [Int: Int] = [:]
    /// The extremes once `count > 0` (plain integers: every key of every connection's totals
    /// holds a sketch, and optionals would pad it by 16 bytes).
    private var lowest: Int64 = 0
    private var highest: Int64 = 0
    public private(set) var count = 0

    public init() {}

    public var min: Int64? { count > 0 ? lowest : nil }
    public var max: Int64? { count > 0 ? highest : nil }

    public mutating func add(_ value: Int64) {
        if count == 2 { samples = [lowest, highest] }
        lowest = count == 0 ? value : Swift.min(lowest, value)
        highest = count == 0 ? value : Swift.max(highest, value)
        count += 1
        guard count > 2 else { return }
        if buckets.isEmpty && samples.count < 4096 {
            samples.append(value)
            return
        }
        if !samples.isEmpty {
            for sample in samples { buckets[Self.bucket(sample), default: 0] += 1 }
            samples.removeAll()
        }
        buckets[Self.bucket(value), default: 0] += 1
    }

    public var median: Int64? {
        // Of two samples, the upper one (as `samples.sorted()[count / 2]` would pick).
        if count <= 2 { return count == 2 ? max : min }
        if !samples.isEmpty { return samples.sorted()[samples.count / 2] }
        var seen = 0
        for key in buckets.keys.sorted() {
            seen += buckets[key] ?? 0
            if seen > count / 2 { return Self.value(ofBucket: key) }
        }
        return nil
    }

    /// Keeps count, minimum, median and maximum only: for a sketch that takes no more samples
    /// (an ended connection's), so the report's thousands of connections stay small.
    mutating func freeze() {
        guard count > 2, let median else { return }
        samples = [median]
        buckets = [:]
    }

    static func bucket(_ value: Int64) -> Int {
        value <= 1 ? 0 : Int((log(Double(value)) / log(1.05)).rounded(.down))
    }

    static func value(ofBucket bucket: Int) -> Int64 { Int64(pow(1.05, Double(bucket)).rounded()) }
}

/// One attribute of a device's GATT database, rebuilt from discovery.
public struct GATTAttribute: Sendable, Equatable {
    public enum Kind: String, Sendable { case service, secondaryService = "secondary-service", include, characteristic, descriptor }
    public var handle: UInt16
    public var uuid: BluetoothUUID
    public var kind: Kind
    /// Characteristic properties (`read`, `notify`, …), for characteristics.
    public var properties: [String]
    /// The declaration handle of a characteristic, whose value is at `handle`.
    public var declarationHandle: UInt16?
    public var endHandle: UInt16?
}

/// The outcome of an HCI command (Core v5.4 Vol 4 Part E §4.4: Command Status or Complete).
public struct HCICommandOutcome: Sendable {
    public var opcode: HCIOpcode
    public var commandUs: Int64
    public var responseUs: Int64?
    public var status: HCIStatus?
    public var answeredBy: String?
}

/// Counts over the whole capture.
public struct CaptureStatistics: Sendable {
    public var records = 0
    public var hciCommands = 0
    public var hciEvents = 0
    public var aclPackets = 0
    public var airPackets = 0
    public var badCRCPackets = 0
    /// Air packets attributed to no advertiser or link: bad CRCs (`badCRCPackets`) and radio
    /// noise (docs/air-captures.md, "Radio noise").
    public var undecodableRadioPackets = 0
    public var attPDUs: [UInt8: Int] = [:]
    /// ATT PDUs the capturing tool cut (btsnooz, bug-report summaries), by the opcode still
    /// visible; `hiddenATTPDUs` counts them all, opcode visible or not.
    public var cutATTPDUs: [UInt8: Int] = [:]
    public var hiddenATTPDUs = 0
    public var truncatedRecords = 0
    public var firstTimeUs: Int64?
    public var lastTimeUs: Int64?
    public var issues: [PacketIssue.Kind: Int] = [:]
    /// Every failure by kind, including those past the listing cap.
    public var failuresByKind: [FailureKind: Int] = [:]
    /// Every failure, including those past the listing cap.
    public var failures: Int { failuresByKind.values.reduce(0, +) }
    /// Every notice (warning or info) by kind, each occurrence counted.
    public var noticesByKind: [FailureKind: Int] = [:]
    /// Records with a time earlier than a record before them, the first of them, and the
    /// largest step back.
    public var outOfOrderRecords = 0
    public var firstOutOfOrderRecord: Int?
    public var largestStepBackUs: Int64 = 0
    /// The most connections up at the same time.
    public var maxConcurrentConnections = 0
    /// SCO and ISO records (audio: counted, not analysed), and records that are neither HCI
    /// nor air packets (notes, control records, types no decoder reads).
    public var scoPackets = 0
    public var isoPackets = 0
    public var otherRecords = 0
    /// Records that did not decode at the HCI or link layer (counted in `issues` by kind too).
    public var undecodableRecords = 0
    /// L2CAP PDUs on channels not analysed, summed over every connection (`Connection.channels`),
    /// and PDUs on links no connection was made for.
    public var channelsNotAnalysed: [ChannelUse] = []
    public var l2capWithoutConnection = 0
}
