import BLEBase

/// Joins the fragments of LE Extended Advertising Reports (Core v5.4 Vol 4 Part E §7.7.65.13:
/// data status 1 = more to come, 0 = complete, 2 = truncated) per advertiser and set, keyed by
/// (address type, address, SID). A state machine over value types: feed each report, get back
/// the reports that are now whole.
///
/// Bounded: a partial that sees `maxReportsWithoutProgress` other reports go by, or grows past
/// `maxDataBytes`, is dropped and returned as `.abandoned`.
public struct ExtendedAdvertisingAssembler: Sendable {
    public struct Key: Hashable, Sendable {
        public var addressType: AddressType
        public var address: BluetoothAddress
        public var sid: UInt8
    }

    public enum Output: Sendable, Equatable {
        /// A report whose data is whole: a single complete report or joined fragments.
        case complete(LEExtendedAdvertisingReport, fragments: Int)
        /// The controller gave up (data status 2); the data joined so far.
        case truncated(LEExtendedAdvertisingReport, fragments: Int)
        /// A partial dropped: stale, over the byte cap, or left over at `flush()`.
        case abandoned(LEExtendedAdvertisingReport, fragments: Int, reason: AbandonReason)
    }

    public enum AbandonReason: String, Sendable, Equatable {
        case stale, tooLarge = "too-large", endOfCapture = "end-of-capture"
    }

    private struct Partial: Sendable {
        var report: LEExtendedAdvertisingReport
        var fragments: Int
        var lastFed: Int
    }

    /// Maximum advertising data length an extended advertising set can carry (§7.8.54: 1650 bytes).
    public static let defaultMaxDataBytes = 1650

    public let maxReportsWithoutProgress: Int
    public let maxDataBytes: Int
    private var partials: [Key: Partial] = [:]
    private var fed = 0

    public init(maxReportsWithoutProgress: Int = 64, maxDataBytes: Int = Self.defaultMaxDataBytes) {
        self.maxReportsWithoutProgress = max(1, maxReportsWithoutProgress)
        self.maxDataBytes = max(0, maxDataBytes)
    }

    public var pendingCount: Int { partials.count }

    /// Feeds one report (one entry of an event's report list) and returns what it completes or evicts.
    public mutating func feed(_ report: LEExtendedAdvertisingReport) -> [Output] {
        fed += 1
        var out = evictStale()
        let key = Key(addressType: report.addressType, address: report.address, sid: report.advertisingSID)
        var partial: Partial
        if var existing = partials.removeValue(forKey: key) {
            existing.report.data += report.data
            existing.report.rssi = report.rssi
            existing.report.eventType = existing.report.eventType.with(dataStatus: report.eventType.dataStatus)
            existing.fragments += 1
            existing.lastFed = fed
            partial = existing
        } else {
            partial = Partial(report: report, fragments: 1, lastFed: fed)
        }
        switch report.eventType.dataStatus {
        case .incomplete:
            if partial.report.data.count > maxDataBytes {
                out.append(.abandoned(partial.report, fragments: partial.fragments, reason: .tooLarge))
            } else {
                partials[key] = partial
            }
        case .truncated:
            out.append(.truncated(partial.report, fragments: partial.fragments))
        default:
            out.append(.complete(partial.report, fragments: partial.fragments))
        }
        return out
    }

    /// Returns every partial still waiting (at the end of a capture) and forgets them.
    public mutating func flush() -> [Output] {
        let out = partials.values.sorted { $0.lastFed < $1.lastFed }
            .map { Output.abandoned($0.report, fragments: $0.fragments, reason: .endOfCapture) }
        partials.removeAll()
        return out
    }

    private mutating func evictStale() -> [Output] {
        let stale = partials.filter { fed - $0.value.lastFed > maxReportsWithoutProgress }
        guard !stale.isEmpty else { return [] }
        for key in stale.keys { partials.removeValue(forKey: key) }
        return stale.values.sorted { $0.lastFed < $1.lastFed }
            .map { .abandoned($0.report, fragments: $0.fragments, reason: .stale) }
    }
}
