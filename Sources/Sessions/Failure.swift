import BLEBase

/// What went wrong, in the report contract's words (docs/report.md, docs/failures.md).
package struct FailureKind: RawRepresentable, Hashable, Sendable, Comparable {
    package var rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let connectionFailed = Self(rawValue: "connection-failed")
    package static let connectionNeverCompleted = Self(rawValue: "connection-never-completed")
    package static let danglingConnection = Self(rawValue: "dangling-connection")
    package static let linkLost = Self(rawValue: "link-lost")
    package static let hciCommandFailed = Self(rawValue: "hci-command-failed")
    package static let attError = Self(rawValue: "att-error")
    package static let attTimeout = Self(rawValue: "att-timeout")
    package static let attNoResponse = Self(rawValue: "att-no-response")
    package static let vendorCRCMismatch = Self(rawValue: "vendor-crc-mismatch")
    package static let vendorStatusFailure = Self(rawValue: "vendor-status-failure")
    package static let vendorNoResponse = Self(rawValue: "vendor-no-response")
    package static let vendorMalformedFrame = Self(rawValue: "vendor-malformed-frame")
    package static let captureTruncated = Self(rawValue: "capture-truncated")
    package static let pairingFailed = Self(rawValue: "pairing-failed")
    package static let encryptionFailed = Self(rawValue: "encryption-failed")
    package static let attProtocolViolation = Self(rawValue: "att-protocol-violation")
    // Notices (docs/failures.md gives each its severity and why).
    package static let disconnectNotCaptured = Self(rawValue: "disconnect-not-captured")
    package static let hciVendorCommandUnsupported = Self(rawValue: "hci-vendor-command-unsupported")
    package static let hciVendorCommandFailed = Self(rawValue: "hci-vendor-command-failed")
    package static let hciCommandWhilePending = Self(rawValue: "hci-command-while-pending")
    package static let advertisingAddressRefused = Self(rawValue: "advertising-address-refused")
    package static let nothingToCancel = Self(rawValue: "connection-cancel-too-late")
    package static let backgroundConnectionPending = Self(rawValue: "background-connection-pending")
    package static let connectionAttemptCancelled = Self(rawValue: "connection-attempt-cancelled")
    package static let securityRequestIgnored = Self(rawValue: "security-request-ignored")
    package static let securityRequestRejected = Self(rawValue: "security-request-rejected")
    package static let recordsOutOfOrder = Self(rawValue: "records-out-of-order")
    package static let attAnswerNotCaptured = Self(rawValue: "att-answer-not-captured")
    package static let connectionNotFollowed = Self(rawValue: "connection-not-followed")

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// How much a finding matters (docs/failures.md): `failure`, an operation the user cares about
/// failed (red); `warning`, worth a look though nothing failed (yellow); `info`, stack
/// housekeeping, shown only when asked (`-v`).
package enum FindingSeverity: String, Sendable, Comparable {
    case info, warning, failure

    package static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
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
package struct Failure: Sendable {
    package var kind: FailureKind
    package var severity: FindingSeverity
    /// Occurrences this entry stands for: a run of the same notice on one link is one entry.
    package var count: Int
    package var timeUs: Int64
    package var record: Int?
    package var deviceID: String?
    package var connectionID: String?
    /// One line a person understands, naming the characteristic and the error by name.
    package var summary: String
    /// Extra facts for the JSON report (`opcode`, `status`, `handle`, …).
    package var details: [Field]

    package init(kind: FailureKind, severity: FindingSeverity = .failure, timeUs: Int64, record: Int?, deviceID: String?,
                connectionID: String?, summary: String, details: [Field] = [], count: Int = 1) {
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
