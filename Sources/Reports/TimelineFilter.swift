import BLEBase
import Sessions

/// What the user asked to see: `--device`, `--since`/`--until`, `--only-failures`,
/// `--handle`, `--uuid`. Empty lists select everything.
package struct TimelineFilter: Sendable {
    /// Device ids (`D2`), addresses, identities, or (part of) a name, case-insensitive.
    package var devices: [String] = []
    package var since: TimeBound?
    package var until: TimeBound?
    package var onlyFailures = false
    package var handles: [UInt16] = []
    package var uuids: [BluetoothUUID] = []

    package init(devices: [String] = [], since: TimeBound? = nil, until: TimeBound? = nil, onlyFailures: Bool = false,
                handles: [UInt16] = [], uuids: [BluetoothUUID] = []) {
        self.devices = devices
        self.since = since
        self.until = until
        self.onlyFailures = onlyFailures
        self.handles = handles
        self.uuids = uuids
    }

    package var isEmpty: Bool {
        devices.isEmpty && since == nil && until == nil && !onlyFailures && handles.isEmpty && uuids.isEmpty
    }

    package func matches(_ device: Device) -> Bool {
        guard !devices.isEmpty else { return true }
        return devices.contains { wanted in
            let needle = wanted.lowercased()
            return device.id.lowercased() == needle
                || device.addresses.contains { $0.address.description.lowercased() == needle }
                || device.identity.map { $0.value.lowercased() == needle } ?? false
                || device.names.contains { $0.lowercased().contains(needle) }
        }
    }

    /// Events in the time window, failures only if asked, about the handles or UUIDs if asked.
    /// With a handle or UUID filter, a connection's opening line stays as context for the
    /// lines that matched on it.
    package func apply(to timeline: Timeline) -> Timeline {
        guard !isEmpty else { return timeline }
        var out = timeline
        out.lanes = timeline.lanes.compactMap { apply(to: $0, startUs: timeline.startUs) }
        out.host = apply(host: timeline.host, startUs: timeline.startUs)
        return out
    }

    /// One lane as `apply(to:)` filters it; nil when nothing is left of it.
    package func apply(to lane: TimelineLane, startUs: Int64) -> TimelineLane? {
        guard !isEmpty else { return lane }
        guard matches(lane.device) else { return nil }
        let window = self.window(startUs: startUs)
        var events = lane.events.filter { keep($0, gatt: lane.device.gatt, window: window) }
        if !handles.isEmpty || !uuids.isEmpty {
            let touched = Set(events.compactMap(\.connectionID))
            events = lane.events.filter { event in
                (event.kind == .connected && event.connectionID.map(touched.contains) == true && !onlyFailures)
                    || keep(event, gatt: lane.device.gatt, window: window)
            }
        }
        if !handles.isEmpty || !uuids.isEmpty {
            // A line that lists transactions of several attributes keeps those about the asked ones.
            for i in events.indices where events[i].details.contains(where: { $0.handle != nil }) {
                events[i].details = events[i].details.filter { detail in
                    detail.handle.map { about(TimelineEvent(kind: .traffic, timeUs: 0, handles: [$0], text: ""), gatt: lane.device.gatt) } ?? true
                }
            }
            events.removeAll { $0.verboseOnly && $0.details.isEmpty }
        }
        guard !events.isEmpty else { return nil }
        var kept = lane
        kept.events = events
        return kept
    }

    /// The host's events as `apply(to:)` filters them: none when devices are asked for.
    package func apply(host: [TimelineEvent], startUs: Int64) -> [TimelineEvent] {
        guard !isEmpty else { return host }
        let window = self.window(startUs: startUs)
        return devices.isEmpty ? host.filter { keep($0, gatt: [], window: window) } : []
    }

    private func window(startUs: Int64) -> (low: Int64?, high: Int64?) {
        (since?.resolve(start: startUs), until?.resolve(start: startUs))
    }

    private func keep(_ event: TimelineEvent, gatt: [GATTAttribute], window: (low: Int64?, high: Int64?)) -> Bool {
        if let low = window.low, (event.endUs ?? event.timeUs) < low { return false }
        if let high = window.high, event.timeUs > high { return false }
        if onlyFailures && event.severity != .error { return false }
        return about(event, gatt: gatt)
    }

    func about(_ event: TimelineEvent, gatt: [GATTAttribute]) -> Bool {
        if handles.isEmpty && uuids.isEmpty { return true }
        if event.handles.contains(where: handles.contains) { return true }
        guard !uuids.isEmpty else { return false }
        return event.handles.contains { handle in
            let own = gatt.first { $0.handle == handle }?.uuid
            let owner = TimelineFormat.characteristic(containing: handle, in: gatt)?.uuid
            return [own, owner].contains { $0.map(uuids.contains) ?? false }
        }
    }
}

/// A `--since`/`--until` bound: seconds from the first record (`12.5`, `+12.5`, `1500ms`) or a
/// UTC time (`2024-04-25T08:23:55.5Z`).
package enum TimeBound: Sendable, Equatable {
    case relative(Int64)
    case absolute(Int64)

    package init?(_ text: String) {
        if let absolute = Self.parseISO8601(text) {
            self = .absolute(absolute)
            return
        }
        var body = Substring(text)
        if body.hasPrefix("+") { body = body.dropFirst() }
        var scale = 1_000_000.0
        if body.hasSuffix("ms") {
            body = body.dropLast(2)
            scale = 1_000
        } else if body.hasSuffix("s") {
            body = body.dropLast()
        }
        guard let value = Double(body), value.isFinite, value >= 0, value < 1e9 else { return nil }
        self = .relative(Int64((value * scale).rounded()))
    }

    package func resolve(start: Int64) -> Int64 {
        switch self {
        case .relative(let us): start + us
        case .absolute(let us): us
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.ffffff][Z]`, always UTC.
    static func parseISO8601(_ text: String) -> Int64? {
        var body = Substring(text)
        if body.hasSuffix("Z") { body = body.dropLast() }
        let dateAndTime = body.split(separator: "T", omittingEmptySubsequences: false)
        guard dateAndTime.count == 2 else { return nil }
        let date = dateAndTime[0].split(separator: "-", omittingEmptySubsequences: false).map { Int64($0) }
        let clock = dateAndTime[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, clock.count == 3, let year = date[0], let month = date[1], let day = date[2],
              let hour = Int64(clock[0]), let minute = Int64(clock[1]),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (1970...9999).contains(year) else { return nil }
        let secondParts = clock[2].split(separator: ".", omittingEmptySubsequences: false)
        guard let second = secondParts.first.flatMap({ Int64($0) }), (0...60).contains(second), secondParts.count <= 2
        else { return nil }
        var micros: Int64 = 0
        if secondParts.count == 2 {
            let digits = secondParts[1].prefix(6)
            guard !digits.isEmpty, let fraction = Int64(digits) else { return nil }
            micros = fraction * Int64([1, 100_000, 10_000, 1_000, 100, 10, 1][digits.count])
        }
        // Days from civil (Howard Hinnant's public-domain algorithm, proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000_000) + micros
    }
}
