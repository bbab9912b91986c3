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
package struct Device: Sendable {
    package var id: String
    package var addresses: [DeviceAddress]
    /// What tied several addresses together, or the identity a profile extracted.
    package var identity: DeviceIdentity?
    package var names: [String]
    package var companyIDs: [UInt16]
    package var serviceUUIDs: [BluetoothUUID]
    package var txPower: Int8?
    package var advertisements: Int
    package var firstSeenUs: Int64?
    package var lastSeenUs: Int64?
    package var connectionIDs: [String]
    package var gatt: [GATTAttribute]
}

/// One address of a device and how it was seen.
package struct DeviceAddress: Sendable {
    package var address: BluetoothAddress
    package var type: AddressKind
    package var advertisements: Int
    package var scanResponses: Int
    package var rssi: RSSIStatistics?
    package var firstSeenUs: Int64?
    package var lastSeenUs: Int64?
    /// Advertising in bursts: runs of advertisements less than `AdvertisingBursts.gapUs` apart.
    package var bursts: [AdvertisingBurst]
}

/// A run of advertisements from one address with no gap over `AdvertisingBursts.gapUs`.
package struct AdvertisingBurst: Sendable, Equatable {
    package var startUs: Int64
    package var endUs: Int64
    package var count: Int
    package var rssiMin: Int?
    package var rssiMax: Int?
}

/// The address type as the report names it: public, or random with its sub-type
/// (Core v5.4 Vol 6 Part B §1.3).
package enum AddressKind: String, Sendable {
    case publicAddress = "public"
    case randomStatic = "random-static"
    case randomResolvable = "random-resolvable"
    case randomNonResolvable = "random-non-resolvable"
    case publicIdentity = "public-identity"
    case randomIdentity = "random-identity"
    case unknown

    package init(_ type: AddressType, _ address: BluetoothAddress) {
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
package struct RSSIStatistics: Sendable, Equatable {
    package var min: Int
    package var median: Int
    package var max: Int
    package var count: Int
}

package struct DeviceIdentity: Sendable, Equatable, Hashable {
    package var value: String
    /// Where it came from: `smp-identity-address`, `enhanced-connection-complete`, `profile NAME: …`.
    package var source: String

    package init(value: String, source: String) {
        self.value = value
        self.source = source
    }
}

/// A connection and what became of it.
package struct Connection: Sendable {
    package var id: String
    package var deviceID: String?
    package var link: LinkID
    package var handle: UInt16?
    package var accessAddress: UInt32?
    package var peerAddress: BluetoothAddress?
    package var peerAddressType: AddressType?
    package var role: Role
    /// The LE Create Connection (or CONNECT_IND) that started it, when seen.
    package var createUs: Int64?
    package var startUs: Int64
    package var startRecord: Int
    package var endUs: Int64?
    package var endRecord: Int?
    package var disconnectReason: HCIStatus?
    package var initiator: DisconnectInitiator?
    package var completeEvent: String
    package var parameters: [ConnectionParameters]
    package var mtu: Int
    package var dataLength: (tx: Int, rx: Int)?
    package var phy: (tx: String, rx: String)?
    package var encrypted: Bool
    package var lastActivityUs: Int64
    package var transactions: [ATTTransaction]
    /// Handle Value Notifications with their values, listed as transactions are (`--transactions
    /// all`, same caps) but apart: they answer nothing and are no transaction of the report.
    package var notifications: [ATTTransaction] = []
    package var transactionTotals: TransactionTotals
    package var subscriptions: [Subscription]
    /// Over the air: the CRC preset of the link (CONNECT_IND's CRCInit).
    package var crcInit: UInt32?
    /// Over the air: the central (CONNECT_IND's InitA); `peerAddress` is the peripheral.
    package var centralAddress: BluetoothAddress?
    package var centralAddressType: AddressType?
    /// Values that need no answer (notifications, Write Commands), counted per handle.
    package var valueCounts: [ValueCountKey: Int]
    /// When the client ran GATT discovery on this link (first and last discovery request).
    package var discovery: (startUs: Int64, endUs: Int64)?
    /// Why the end is inferred rather than seen, when it is: the host's Disconnect with no
    /// completion captured, or silence over the air.
    package var endInferred: String? = nil
    /// Discoveries after the first (a new primary-service discovery from handle 0x0001).
    package var rediscoveries: [(startUs: Int64, endUs: Int64)] = []
    /// Pairings and encryption changes on this link, in time order.
    package var security = ConnectionSecurity()
    package var dangling: Bool { endUs == nil }
    /// `le` or `br-edr`: which link the connection is (LE Connection Complete or CONNECT_IND, or
    /// the BR/EDR Connection Complete).
    package var transport: Transport = .le
    /// Traffic on a link whose completion event the capture lacks: the capture began (or the
    /// sniffer joined) while it was up; it starts at its first record.
    package var startedBeforeCapture = false
    /// The ATT bearers that carried ATT on the link, in the order they were first used.
    package var bearers: [ATTBearer] = []
    /// The GATT database learned on a link whose peer the capture never named (a link begun
    /// before the capture); a known peer's database is its device's (`Device.gatt`).
    package var gatt: [GATTAttribute] = []
    /// L2CAP channels whose traffic is not analysed (RFCOMM, SDP, AVDTP…), by PSM, or by CID
    /// when the capture lacks the channel's opening.
    package var channels: [ChannelUse] = []

    package enum Role: String, Sendable { case central, peripheral, unknown }
    package enum Transport: String, Sendable { case le, brEdr = "br-edr" }
}

/// One ATT bearer of a connection (Core v5.4 Vol 3 Part F §3.2.11): the LE fixed channel, an
/// L2CAP channel for PSM 0x001F on BR/EDR, or an enhanced ATT channel (PSM 0x0027).
package struct ATTBearer: Sendable, Equatable {
    package enum Kind: String, Sendable { case attFixed = "att-fixed", attBREDR = "att-br-edr", eatt }
    package var kind: Kind
    /// nil on the fixed channel.
    package var psm: UInt16?
    package var localCID: UInt16
    package var remoteCID: UInt16

    package init(kind: Kind, psm: UInt16?, localCID: UInt16, remoteCID: UInt16) {
        self.kind = kind
        self.psm = psm
        self.localCID = localCID
        self.remoteCID = remoteCID
    }
}

/// Traffic on one L2CAP channel that bledecode names but does not decode.
package struct ChannelUse: Sendable, Equatable {
    /// nil when the capture lacks the channel's opening (or for a fixed channel).
    package var psm: UInt16?
    /// The channel's CID as the capture's side knows it (or the one seen, when its opening is missing).
    package var cid: UInt16
    package var packets: Int
    package var bytes: Int
    package var firstUs: Int64
    package var lastUs: Int64
}

package enum DisconnectInitiator: String, Sendable {
    case localHost = "local-host", remote, controller, unknown
}

/// Interval, latency and supervision timeout at a point in time (Core v5.4 Vol 6 Part B §4.5).
package struct ConnectionParameters: Sendable, Equatable {
    package var timeUs: Int64
    package var intervalUs: Int
    package var latency: Int
    package var supervisionTimeoutMs: Int
}

/// Which unanswered values a count is about: opcode and handle.
package struct ValueCountKey: Hashable, Sendable, Comparable {
    package var opcode: UInt8
    package var handle: UInt16
    package static func < (a: Self, b: Self) -> Bool { (a.handle, a.opcode) < (b.handle, b.opcode) }
}

/// A CCCD write: notifications/indications turned on or off for a characteristic.
package struct Subscription: Sendable, Equatable {
    package var timeUs: Int64
    package var cccdHandle: UInt16
    package var characteristic: String
    package var notifications: Bool
    package var indications: Bool
}

/// A connection attempt that did not become a connection.
package struct ConnectionAttempt: Sendable {
    package enum Outcome: String, Sendable { case failed, cancelled, neverCompleted = "never-completed", rejected }
    package var peerAddress: BluetoothAddress?
    package var deviceID: String?
    package var createUs: Int64
    package var endUs: Int64?
    package var outcome: Outcome
    package var status: HCIStatus?
}

/// An ATT request and its answer (Core v5.4 Vol 3 Part F §3.3: one outstanding request per
/// bearer and direction; 30 s transaction timeout).
package struct ATTTransaction: Sendable {
    package enum Outcome: String, Sendable {
        case ok, error, timeout, noResponse = "no-response", noResponseExpected = "no-response-expected"
    }
    package var opcode: ATTOpcode
    package var handle: UInt16?
    /// What `handle` is, resolved from the device's GATT database: `Battery Level (2A19)`.
    package var attribute: String?
    package var direction: Direction
    package var requestUs: Int64
    package var requestRecord: Int
    package var responseUs: Int64?
    package var responseRecord: Int?
    package var responseOpcode: ATTOpcode?
    package var outcome: Outcome
    package var errorCode: ATTErrorCode?
    /// The value the request carried (a write, a notification or indication; long writes joined
    /// from Prepare Write), when the transaction is listed.
    package var value: [UInt8]?
    /// The value the response carried (a read; long reads joined from Read Blob), its first
    /// `valueCap` bytes, and its whole length; listed transactions only.
    package var responseValue: [UInt8]?
    package var responseValueLength: Int?
    package var latencyUs: Int64? { responseUs.map { $0 - requestUs } }

    /// Bytes of a response's value kept in a listed transaction.
    package static let valueCap = 64
}

/// Counts and latency per (opcode, handle), kept even when transactions are not listed.
package struct TransactionTotals: Sendable {
    package struct Key: Hashable, Sendable, Comparable {
        package var opcode: UInt8
        package var handle: UInt16?
        package static func < (a: Key, b: Key) -> Bool { (a.handle ?? 0, a.opcode) < (b.handle ?? 0, b.opcode) }
    }
    package struct Aggregate: Sendable {
        package var count = 0
        /// Error responses other than the Attribute Not Found that ends a discovery procedure.
        package var errors = 0
        /// Attribute Not Found ending a discovery procedure: normal, not a failure.
        package var discoveryEnds = 0
        package var unanswered = 0
        package var latencies = LatencySketch()
    }
    package var byKey: [Key: Aggregate] = [:]

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
package struct LatencySketch: Sendable {
    private var samples: [Int64] = []
    private var buckets: [Int: Int] = [:]
    /// The extremes once `count > 0` (plain integers: every key of every connection's totals
    /// holds a sketch, and optionals would pad it by 16 bytes).
    private var lowest: Int64 = 0
    private var highest: Int64 = 0
    package private(set) var count = 0

    package init() {}

    package var min: Int64? { count > 0 ? lowest : nil }
    package var max: Int64? { count > 0 ? highest : nil }

    package mutating func add(_ value: Int64) {
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

    package var median: Int64? {
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
package struct GATTAttribute: Sendable, Equatable {
    package enum Kind: String, Sendable { case service, secondaryService = "secondary-service", include, characteristic, descriptor }
    package var handle: UInt16
    package var uuid: BluetoothUUID
    package var kind: Kind
    /// Characteristic properties (`read`, `notify`, …), for characteristics.
    package var properties: [String]
    /// The declaration handle of a characteristic, whose value is at `handle`.
    package var declarationHandle: UInt16?
    package var endHandle: UInt16?
}

/// The outcome of an HCI command (Core v5.4 Vol 4 Part E §4.4: Command Status or Complete).
package struct HCICommandOutcome: Sendable {
    package var opcode: HCIOpcode
    package var commandUs: Int64
    package var responseUs: Int64?
    package var status: HCIStatus?
    package var answeredBy: String?
}

/// Counts over the whole capture.
package struct CaptureStatistics: Sendable {
    package var records = 0
    package var hciCommands = 0
    package var hciEvents = 0
    package var aclPackets = 0
    package var airPackets = 0
    package var badCRCPackets = 0
    /// Air packets attributed to no advertiser or link: bad CRCs (`badCRCPackets`) and radio
    /// noise (docs/air-captures.md, "Radio noise").
    package var undecodableRadioPackets = 0
    package var attPDUs: [UInt8: Int] = [:]
    /// ATT PDUs the capturing tool cut (btsnooz, bug-report summaries), by the opcode still
    /// visible; `hiddenATTPDUs` counts them all, opcode visible or not.
    package var cutATTPDUs: [UInt8: Int] = [:]
    package var hiddenATTPDUs = 0
    package var truncatedRecords = 0
    package var firstTimeUs: Int64?
    package var lastTimeUs: Int64?
    package var issues: [PacketIssue.Kind: Int] = [:]
    /// Every failure by kind, including those past the listing cap.
    package var failuresByKind: [FailureKind: Int] = [:]
    /// Every failure, including those past the listing cap.
    package var failures: Int { failuresByKind.values.reduce(0, +) }
    /// Every notice (warning or info) by kind, each occurrence counted.
    package var noticesByKind: [FailureKind: Int] = [:]
    /// Records with a time earlier than a record before them, the first of them, and the
    /// largest step back.
    package var outOfOrderRecords = 0
    package var firstOutOfOrderRecord: Int?
    package var largestStepBackUs: Int64 = 0
    /// The most connections up at the same time.
    package var maxConcurrentConnections = 0
    /// SCO and ISO records (audio: counted, not analysed), and records that are neither HCI
    /// nor air packets (notes, control records, types no decoder reads).
    package var scoPackets = 0
    package var isoPackets = 0
    package var otherRecords = 0
    /// Records that did not decode at the HCI or link layer (counted in `issues` by kind too).
    package var undecodableRecords = 0
    /// L2CAP PDUs on channels not analysed, summed over every connection (`Connection.channels`),
    /// and PDUs on links no connection was made for.
    package var channelsNotAnalysed: [ChannelUse] = []
    package var l2capWithoutConnection = 0
}
