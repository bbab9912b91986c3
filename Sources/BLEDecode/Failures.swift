internal import BLESessions

extension CaptureReport {
    /// The failures of a capture. Past 1,000 of one kind only totals are kept (docs/report.md),
    /// so `count` can exceed `listed.count`.
    ///
    /// `count`, `isEmpty` and `countsByKind` cover every failure of the capture; iterating (and so
    /// `map`, `filter`, `first(where:)`, `contains(where:)`) goes over the listed ones, `listed`.
    public struct Failures: Sequence, Sendable, Hashable {
        /// Every failure of the capture, listed or not: the true total.
        public let count: Int
        /// Totals per kind (`att-error`, `link-lost`, `vendor-crc-mismatch`, …), listed or not.
        public let countsByKind: [String: Int]
        /// The failures listed, in time order; what iterating goes over.
        public let listed: [Failure]

        init(_ report: SessionReport) {
            countsByKind = Dictionary(uniqueKeysWithValues: report.stats.failuresByKind.map { ($0.key.rawValue, $0.value) })
            count = countsByKind.values.reduce(0, +)
            listed = report.failures.map(Failure.init)
        }

        /// True when the capture has no failure at all (`count` is 0).
        public var isEmpty: Bool { count == 0 }

        /// Iterates over the listed failures (`listed`), in time order.
        public func makeIterator() -> IndexingIterator<[Failure]> { listed.makeIterator() }

        /// The number of listed failures (`listed.count`), which iterating yields.
        public var underestimatedCount: Int { listed.count }
    }

    /// One finding, at the time it became visible in the capture: a failure (in `failures`) or,
    /// of severity `warning` or `info`, a notice (in `notices`).
    public struct Failure: Sendable, Hashable {
        /// How much a finding matters (docs/failures.md says which kind has which, and why).
        public enum Severity: String, Sendable, Hashable, CaseIterable {
            /// Something failed: the report's `failures[]`.
            case failure
            /// Worth a look, but nothing failed: the report's `notices[]`.
            case warning
            /// Stack housekeeping: the report's `notices[]`.
            case info
        }

        /// The report contract's kind (`att-error`, `link-lost`, `dangling-connection`, …; docs/failures.md).
        public let kind: String
        /// Whether it is a failure, a warning or info; `rawValue` is the JSON report's `severity`.
        public let severity: Severity
        /// How many times the finding occurred: a run of one notice on one link is one entry.
        public let count: Int
        /// When it became visible: microseconds since 1970 (UTC).
        public let timeUs: Int64
        /// The capture's record number where it became visible (as Wireshark numbers frames); nil
        /// when no one record shows it (inferred from silence, or at the end of the capture).
        public let record: Int?
        /// The device it concerns (`D1`), when known.
        public let deviceID: String?
        /// The connection it concerns (`C1`), when it concerns one.
        public let connectionID: String?
        /// One line a person understands (`Write Request to FFE1 never answered: …`). It quotes
        /// names from the capture unescaped: escape it before printing it to a terminal or HTML.
        public let summary: String

        init(_ failure: BLESessions.Failure) {
            kind = failure.kind.rawValue
            severity = switch failure.severity {
            case .failure: .failure
            case .warning: .warning
            case .info: .info
            }
            count = failure.count
            timeUs = failure.timeUs
            record = failure.record
            deviceID = failure.deviceID?.description
            connectionID = failure.connectionID?.description
            summary = failure.summary
        }
    }
}
