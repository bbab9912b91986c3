import BLEBase
import BLESessions

/// What happened in a capture, per device, one entry per meaningful event (never one per
/// packet): built once from the session model by `Timeline.init(_:)` and rendered as terminal
/// text, HTML or Markdown. Text in events is plain and untrusted (device names, notes): every
/// renderer escapes it for its medium.
public struct Timeline: Sendable {
    public var startUs: Int64
    public var endUs: Int64
    /// One lane per device, in the order devices were first seen.
    public var lanes: [TimelineLane]
    /// Events tied to no device: HCI commands that failed, a truncated file.
    public var host: [TimelineEvent]
}

/// One device and its events in time order.
public struct TimelineLane: Sendable {
    public var device: Device
    /// `D2 "DEMO-0B0D"`.
    public var title: String
    public var events: [TimelineEvent]
}

/// One line of the timeline.
public struct TimelineEvent: Sendable {
    public enum Kind: String, Sendable {
        case advertising, addressChange = "address-change", attempt, connected, parameters, discovery, subscription,
             traffic, vendorCommand = "vendor-command", disconnected, failure, notice, security
        /// Over the air, a device that was the central of a link its peripheral's lane tells.
        case central
    }

    /// How a line stands out: failures red, warnings (things left open, worth a look) yellow;
    /// info notices are `normal` lines of kind `notice`, shown by the terminal only with `-v`.
    public enum Severity: Int, Sendable, Comparable {
        case normal, warning, error
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
        public var name: String {
            switch self {
            case .normal: "normal"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    public var kind: Kind
    public var severity: Severity
    public var timeUs: Int64
    /// For spans: advertising bursts, connections.
    public var endUs: Int64?
    /// False for summaries that belong to a span rather than a moment (traffic per characteristic).
    public var timed = true
    public var connectionID: ConnectionID?
    /// Attribute handles the event is about (for `--handle` and `--uuid`).
    public var handles: [UInt16] = []
    public var text: String
    public var failureKind: FailureKind?
    /// Record numbers behind the event, for jumping to packets in Wireshark.
    public var records: [Int] = []
    /// The packets or transactions a summary stands for (`--verbose`).
    public var details: [TimelineDetail] = []
    /// A line only `--verbose` shows (the connection's transactions in time order), whose
    /// details the other renderings use as they are.
    public var verboseOnly = false

    public init(kind: Kind, severity: Severity = .normal, timeUs: Int64, endUs: Int64? = nil, timed: Bool = true,
                connectionID: ConnectionID? = nil, handles: [UInt16] = [], text: String, failureKind: FailureKind? = nil,
                records: [Int] = [], details: [TimelineDetail] = [], verboseOnly: Bool = false) {
        self.kind = kind
        self.severity = severity
        self.timeUs = timeUs
        self.endUs = endUs
        self.timed = timed
        self.connectionID = connectionID
        self.handles = handles
        self.text = text
        self.failureKind = failureKind
        self.records = records
        self.details = details
        self.verboseOnly = verboseOnly
    }
}

/// One transaction or packet under a summarized event.
public struct TimelineDetail: Sendable {
    public var timeUs: Int64
    public var records: [Int]
    public var severity: TimelineEvent.Severity
    public var text: String
    /// The attribute it is about, for `--handle` and `--uuid`.
    public var handle: UInt16?
}
