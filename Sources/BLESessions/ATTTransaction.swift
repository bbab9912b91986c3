#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// An ATT request and its answer (Core v5.4 Vol 3 Part F §3.3: one outstanding request per
/// bearer and direction; 30 s transaction timeout).
public struct ATTTransaction: Sendable {
    public enum Outcome: String, Sendable {
        case ok, error, timeout, noResponse = "no-response", noResponseExpected = "no-response-expected"
        /// Answered by a PDU whose opcode fits the request but whose parameters do not decode.
        case malformed
    }
    public var opcode: ATTOpcode
    public var handle: UInt16?
    /// What `handle` is, resolved from its server's GATT database: `Battery Level (2A19)`, or
    /// `the host's handle 0x0000` for a request of the device to the other side.
    public var attribute: String?
    public var direction: Direction
    /// Whose GATT server the transaction is about (from its opcode and direction).
    public var server: GATTServer { GATTServer(of: opcode, sentIn: direction) }
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
    /// Unanswered when a link whose end the capture did not show went quiet: nothing is known
    /// to have failed (its finding is a warning).
    public var endNotSeen = false
    /// Answered `malformed` only by bytes after parameters that were all there (Core v5.4 Vol 3
    /// Part F §3.4 defines each PDU's length): a lenient client takes such an answer, so its
    /// finding is a warning.
    public var answerHasExtraBytes = false
    public var latencyUs: Int64? { responseUs.map { $0 - requestUs } }

    /// Bytes of a response's value kept in a listed transaction.
    public static let valueCap = 64
}

/// Which side of a link serves the attributes a PDU is about. Either side may be a GATT client,
/// a server or both (Core v5.4 Vol 3 Part G §2.2): most requests go to the device, but a watch
/// or a band also reads the phone's own server (ANCS, the time), whose handles are not the device's.
public enum GATTServer: String, Sendable, Comparable {
    /// The connection's device (its peer on an HCI capture, the peripheral on air).
    case device
    /// The capturing host's own server, asked by the device (HCI captures).
    case host
    /// The central's server, asked by the peripheral (air captures).
    case central

    /// The server of a client's PDU (a request or command) sent in `direction`: its receiver; of a
    /// server's notification or indication: its sender.
    public init(of opcode: ATTOpcode, sentIn direction: Direction) {
        let fromServer = opcode == .handleValueNotification || opcode == .handleValueIndication
            || opcode == .multipleHandleValueNotification
        switch direction {
        case .received: self = fromServer ? .device : .host
        case .peripheralToCentral: self = fromServer ? .device : .central
        case .sent: self = fromServer ? .host : .device
        case .centralToPeripheral: self = fromServer ? .central : .device
        case .unknown: self = .device
        }
    }

    /// `the host's ` before a handle of the other side's server; empty for the device's.
    public var possessive: String {
        switch self {
        case .device: ""
        case .host: "the host's "
        case .central: "the central's "
        }
    }

    /// The device's own server first.
    public static func < (a: Self, b: Self) -> Bool { a.order < b.order }

    private var order: Int {
        switch self {
        case .device: 0
        case .host: 1
        case .central: 2
        }
    }
}

/// Counts and latency per (opcode, handle), kept even when transactions are not listed.
public struct TransactionTotals: Sendable {
    public struct Key: Hashable, Sendable, Comparable {
        public var opcode: UInt8
        public var handle: UInt16?
        /// The server the requests went to: handles of different servers are different attributes.
        public var server: GATTServer
        /// The device's server first; then by handle (none first), then opcode.
        public static func < (a: Key, b: Key) -> Bool {
            if a.server != b.server { return a.server < b.server }
            return (a.handle.map { Int($0) } ?? -1, a.opcode) < (b.handle.map { Int($0) } ?? -1, b.opcode)
        }
    }
    public struct Aggregate: Sendable {
        public var count = 0
        /// Error responses other than the Attribute Not Found that ends a discovery procedure.
        public var errors = 0
        /// Attribute Not Found ending a discovery procedure: normal, not a failure.
        public var discoveryEnds = 0
        public var unanswered = 0
        /// Requests sent while another on their flow was outstanding (Core v5.4 Vol 3 Part F
        /// §3.3.2): counted in `count`, matched to no answer.
        public var outOfTurn = 0
        public var latencies = LatencySketch()
    }
    /// In key order (`KeyedList`).
    public var byKey: [(key: Key, value: Aggregate)] = []

    /// Freezes every latency sketch (see `LatencySketch.freeze`), changing the values in place.
    mutating func freezeLatencies() {
        for index in byKey.indices { byKey[index].value.latencies.freeze() }
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
