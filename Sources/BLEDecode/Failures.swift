internal import Sessions

extension CaptureReport {
    /// The failures of a capture. Past a number of one kind only totals are kept (docs/report.md),
    /// so `count` (the true total) can exceed `listed.count`; iterating goes over those listed.
    public struct Failures: Sendable, Equatable, Sequence {
        /// Every failure, listed or not.
        public let count: Int
        /// Totals per kind (`att-error`, `link-lost`, `vendor-crc-mismatch`, …).
        public let countsByKind: [String: Int]
        /// The failures listed, in time order.
        public let listed: [Failure]

        init(_ report: SessionReport) {
            countsByKind = Dictionary(uniqueKeysWithValues: report.stats.failuresByKind.map { ($0.key.rawValue, $0.value) })
            count = countsByKind.values.reduce(0, +)
            listed = report.failures.map(Failure.init)
        }

        public func makeIterator() -> IndexingIterator<[Failure]> { listed.makeIterator() }
        public var underestimatedCount: Int { listed.count }
    }

    /// One finding, at the time it became visible in the capture: a failure (in `failures`) or,
    /// of severity `warning` or `info`, a notice (in `notices`).
    public struct Failure: Sendable, Equatable {
        /// The report contract's kind (`att-error`, `link-lost`, `dangling-connection`, …; docs/failures.md).
        public let kind: String
        /// `failure`, `warning` or `info` (docs/failures.md says which kind has which, and why).
        public let severity: String
        /// How many times the finding occurred: a run of one notice on one link is one entry.
        public let count: Int
        /// Microseconds since 1970 (UTC).
        public let timeUs: Int64
        public let record: Int?
        public let deviceID: String?
        public let connectionID: String?
        /// One line a person understands (`Write Request to FFE1 never answered: …`).
        public let summary: String

        init(_ failure: Sessions.Failure) {
            kind = failure.kind.rawValue
            severity = failure.severity.rawValue
            count = failure.count
            timeUs = failure.timeUs
            record = failure.record
            deviceID = failure.deviceID?.description
            connectionID = failure.connectionID?.description
            summary = failure.summary
        }
    }
}
