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
    public static let vendorCRCMismatch = Self(rawValue: "vendor-crc-mismatch")
    public static let vendorStatusFailure = Self(rawValue: "vendor-status-failure")
    public static let vendorNoResponse = Self(rawValue: "vendor-no-response")
    public static let vendorMalformedFrame = Self(rawValue: "vendor-malformed-frame")
    public static let captureTruncated = Self(rawValue: "capture-truncated")

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// One failure, at the time it became visible in the capture, tied to its device and connection.
public struct Failure: Sendable {
    public var kind: FailureKind
    public var timeUs: Int64
    public var record: Int?
    public var deviceID: String?
    public var connectionID: String?
    /// One line a person understands, naming the characteristic and the error by name.
    public var summary: String
    /// Extra facts for the JSON report (`opcode`, `status`, `handle`, …).
    public var details: [Field]

    public init(kind: FailureKind, timeUs: Int64, record: Int?, deviceID: String?, connectionID: String?,
                summary: String, details: [Field] = []) {
        self.kind = kind
        self.timeUs = timeUs
        self.record = record
        self.deviceID = deviceID
        self.connectionID = connectionID
        self.summary = summary
        self.details = details
    }
}
