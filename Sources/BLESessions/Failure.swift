import BLEBase

/// What went wrong, in the report contract's words (docs/report.md, docs/failures.md).
public struct FailureKind: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let connectionFailed = Self(rawValue: "connection-failed")
    public static let connectionNeverCompleted = Self(rawValue: "connection-never-completed")
    public static let danglingConnection = Self(rawValue: "dangling-connection")
    public static let linkLost = Self(rawValue: "link-lost")
    public static let hciCommandFailed = Self(rawValue: "hci-command-failed")
    public static let attError = Self(rawValue: "att-error")
    public static let attTimeout = Self(rawValue: "att-timeout")
    public static let attNoResponse = Self(rawValue: "att-no-response")
    public static let attMalformedAnswer = Self(rawValue: "att-malformed-answer")
    public static let vendorCRCMismatch = Self(rawValue: "vendor-crc-mismatch")
    public static let vendorStatusFailure = Self(rawValue: "vendor-status-failure")
    public static let vendorNoResponse = Self(rawValue: "vendor-no-response")
    public static let vendorMalformedFrame = Self(rawValue: "vendor-malformed-frame")
    public static let captureTruncated = Self(rawValue: "capture-truncated")
    public static let pairingFailed = Self(rawValue: "pairing-failed")
    public static let encryptionFailed = Self(rawValue: "encryption-failed")
    public static let attProtocolViolation = Self(rawValue: "att-protocol-violation")
    // Notices (docs/failures.md gives each its severity and why).
    public static let disconnectNotCaptured = Self(rawValue: "disconnect-not-captured")
    public static let hciVendorCommandUnsupported = Self(rawValue: "hci-vendor-command-unsupported")
    public static let hciVendorCommandFailed = Self(rawValue: "hci-vendor-command-failed")
    public static let hciCommandWhilePending = Self(rawValue: "hci-command-while-pending")
    public static let advertisingAddressRefused = Self(rawValue: "advertising-address-refused")
    public static let nothingToCancel = Self(rawValue: "connection-cancel-too-late")
    public static let backgroundConnectionPending = Self(rawValue: "background-connection-pending")
    public static let connectionAttemptCancelled = Self(rawValue: "connection-attempt-cancelled")
    public static let securityRequestIgnored = Self(rawValue: "security-request-ignored")
    public static let securityRequestRejected = Self(rawValue: "security-request-rejected")
    public static let recordsOutOfOrder = Self(rawValue: "records-out-of-order")
    public static let attAnswerNotCaptured = Self(rawValue: "att-answer-not-captured")
    public static let attAnswerWithoutRequest = Self(rawValue: "att-answer-without-request")
    public static let connectionNotFollowed = Self(rawValue: "connection-not-followed")
    public static let supervisionTimeoutApproaching = Self(rawValue: "supervision-timeout-approaching")

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// How much a finding matters (docs/failures.md): `failure`, an operation the user cares about
/// failed (red); `warning`, worth a look though nothing failed (yellow); `info`, stack
/// housekeeping, shown only when asked (`-v`).
public enum FindingSeverity: String, Sendable, Comparable {
    case info, warning, failure

    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .failure: 2
        }
    }
}

/// One finding, at the time it became visible in the capture, tied to its device and connection:
/// a failure (`failures[]`) or, with a lower severity, a notice (`notices[]`).
public struct Failure: Sendable {
    public var kind: FailureKind
    public var severity: FindingSeverity
    /// Occurrences this entry stands for: a run of the same notice on one link is one entry.
    public var count: Int
    public var timeUs: Int64
    public var record: Int?
    public var deviceID: DeviceID?
    public var connectionID: ConnectionID?
    /// One line a person understands, naming the characteristic and the error by name.
    public var summary: String
    /// Extra facts for the JSON report (`opcode`, `status`, `handle`, …).
    public var details: [Field]

    public init(kind: FailureKind, severity: FindingSeverity = .failure, timeUs: Int64, record: Int?, deviceID: DeviceID?,
                connectionID: ConnectionID?, summary: String, details: [Field] = [], count: Int = 1) {
        self.kind = kind
        self.severity = severity
        self.count = count
        self.timeUs = timeUs
        self.record = record
        self.deviceID = deviceID
        self.connectionID = connectionID
        self.summary = summary
        self.details = details
    }
}
