import BLEAnalysis
import BLEBase
import BLESessions

/// What the user asked to see: `--device`, `--since`/`--until`, `--only-failures`,
/// `--handle`, `--uuid`. Empty lists select everything.
public struct TimelineFilter: Sendable {
    /// Device ids (`D2`), addresses, identities, or (part of) a name, case-insensitive.
    public var devices: [String] = []
    public var since: TimeBound?
    public var until: TimeBound?
    public var onlyFailures = false
    public var handles: [UInt16] = []
    public var uuids: [BluetoothUUID] = []

    public init(devices: [String] = [], since: TimeBound? = nil, until: TimeBound? = nil, onlyFailures: Bool = false,
                handles: [UInt16] = [], uuids: [BluetoothUUID] = []) {
        self.devices = devices
        self.since = since
        self.until = until
        self.onlyFailures = onlyFailures
        self.handles = handles
        self.uuids = uuids
    }

    public var isEmpty: Bool {
        devices.isEmpty && since == nil && until == nil && !onlyFailures && handles.isEmpty && uuids.isEmpty
    }

    public func matches(_ device: Device) -> Bool {
        guard !devices.isEmpty else { return true }
        return devices.contains { wanted in
            DeviceQuery.matches(wanted, id: device.id, addresses: device.addresses.lazy.map(\.address),
                                identity: device.identity?.value, names: device.names)
        }
    }

    /// One message per `devices` query that matches none of `devices`, naming the devices there
    /// are (the first `shown`): an empty timeline then says why.
    public func unmatchedDevices(_ devices: [Device], shown: Int = 10) -> [String] {
        let missing = self.devices.filter { wanted in !devices.contains { TimelineFilter(devices: [wanted]).matches($0) } }
        guard !missing.isEmpty else { return [] }
        let listed = devices.prefix(shown).map { device in device.names.first.map { "\(device.id) (\($0))" } ?? "\(device.id)" }
        let known = devices.isEmpty ? "the capture has no devices"
            : "the capture has " + listed.joined(separator: ", ") + (devices.count > shown ? " and \(devices.count - shown) more" : "")
        return missing.map { "--device \($0): no device matched; \(known)" }
    }

    /// Events in the time window, failures only if asked, about the handles or UUIDs if asked.
    /// With a handle or UUID filter, a connection's opening line stays as context for the
    /// lines that matched on it.
    public func apply(to timeline: Timeline) -> Timeline {
        guard !isEmpty else { return timeline }
        var out = timeline
        out.lanes = timeline.lanes.compactMap { apply(to: $0, startUs: timeline.startUs) }
        out.host = apply(host: timeline.host, startUs: timeline.startUs)
        return out
    }

    /// One lane as `apply(to:)` filters it; nil when nothing is left of it.
    public func apply(to lane: TimelineLane, startUs: Int64) -> TimelineLane? {
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
    public func apply(host: [TimelineEvent], startUs: Int64) -> [TimelineEvent] {
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
