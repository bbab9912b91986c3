import BLEAnalysis
import BLEATT
import BLEBase
import BLEHCI
import BLEL2CAP
import BLESessions

extension Timeline {
    /// Builds the whole per-device timeline (`TimelineBuilder`, every lane).
    public init(_ analysis: Analysis) {
        let builder = TimelineBuilder(analysis)
        startUs = builder.startUs
        endUs = builder.endUs
        lanes = Array(builder.lanes)
        host = builder.host
    }
}

/// Builds the per-device timeline a device at a time (`lane(for:)`), so that a renderer that
/// streams holds one lane and not the whole timeline. Failures are lines of their own (with the
/// model's one-line reason); a normal line a failure already tells is left out (the
/// disconnection of a lost link, a failed attempt), so nothing is said twice and nothing normal
/// stands out.
public struct TimelineBuilder {
    public let startUs: Int64
    public let endUs: Int64
    /// Events tied to no device (or to a device id no longer in the device list), in time order.
    public let host: [TimelineEvent]
    private let analysis: Analysis
    /// What each device's lane is made of, by index into the report's lists, per device id.
    private var connections: [DeviceID: [Int]] = [:]
    private var cancelledAttempts: [DeviceID: [Int]] = [:]
    private var commands: [DeviceID: [Int]] = [:]
    private var failures: [DeviceID: [Int]] = [:]
    private var notices: [DeviceID: [Int]] = [:]
    private var failureRuns: [DeviceID: [Int]] = [:]
    /// Links over the air whose central (CONNECT_IND's InitA) is a device of the capture, by that
    /// device: a phone that also advertised, or one its SMP identity names.
    private var centralOf: [DeviceID: [Int]] = [:]
    /// The same, the other way: each such link's central device, named in the link's first line.
    private var centralDevice: [ConnectionID: DeviceID] = [:]
    private let gattByDevice: [DeviceID: [GATTAttribute]]
    private let lostLinks: Set<ConnectionID>
    /// Failed vendor commands whose failure is counted under another kind (their write never
    /// answered: att-no-response on the same record), by index: their lines name it rather than
    /// take a failure kind of their own.
    private var commandFailedAs: [Int: FailureKind] = [:]

    public init(_ analysis: Analysis) {
        self.analysis = analysis
        let report = analysis.report
        startUs = report.stats.firstTimeUs ?? 0
        endUs = report.stats.lastTimeUs ?? startUs
        gattByDevice = Dictionary(report.devices.map { ($0.id, $0.gatt) }, uniquingKeysWith: { a, _ in a })
        lostLinks = Set(report.failures.filter { $0.kind == .linkLost }.compactMap(\.connectionID))
        let known = Set(report.devices.map(\.id))
        var host: [TimelineEvent] = []
        // Indices go to their device's list; events of no device (or of an id no longer in
        // the device list, which should not happen) are made now, for the host's lane.
        func place(_ index: Int, device: DeviceID?, in lists: inout [DeviceID: [Int]], events: () -> [TimelineEvent]) {
            if let device, known.contains(device) {
                lists[device, default: []].append(index)
                return
            }
            for var line in events() {
                if let device { line.text = "\(device): " + line.text }
                host.append(line)
            }
        }
        let deviceOfAddress = Dictionary(report.devices.flatMap { device in device.addresses.map { ($0.address, device.id) } },
                                         uniquingKeysWith: { first, _ in first })
        for (index, connection) in report.connections.enumerated() {
            guard let central = connection.centralAddress.flatMap({ deviceOfAddress[$0] }), central != connection.deviceID
            else { continue }
            centralOf[central, default: []].append(index)
            centralDevice[connection.id] = central
        }
        for (index, connection) in report.connections.enumerated() {
            place(index, device: connection.deviceID, in: &connections) { [lostLinks, centralDevice] in
                Timeline.connectionEvents(connection, gatt: connection.gatt, lost: lostLinks.contains(connection.id),
                                          central: centralDevice[connection.id])
            }
        }
        // A background attempt cancelled after a long wait is told by its warning.
        for (index, attempt) in report.attempts.enumerated() where attempt.outcome == .cancelled
            && !(attempt.peerAddress == nil && (attempt.endUs ?? 0) - attempt.createUs >= SessionAnalyzer.longBackgroundWaitUs) {
            place(index, device: attempt.deviceID, in: &cancelledAttempts) { [Self.cancelledEvent(attempt)] }
        }
        let deviceOfConnection = Dictionary(report.connections.map { ($0.id, $0.deviceID) }, uniquingKeysWith: { a, _ in a })
        let runs = analysis.vendorFailureRuns
        let (inRuns, commandsInRuns) = Timeline.toldByFailureRuns(runs, failures: report.failures, commands: analysis.vendorCommands)
        let absorbed = Timeline.vendorCommandsToldByFailures(analysis.vendorCommands, failures: report.failures)
            .union(commandsInRuns)
        for (index, run) in runs.enumerated() {
            place(index, device: run.device ?? deviceOfConnection[run.connection] ?? nil, in: &failureRuns) {
                [Timeline.failureRunEvent(run)]
            }
        }
        let otherFailures = Dictionary(report.failures.filter { !$0.kind.rawValue.hasPrefix("vendor-") && $0.record != nil }
            .map { (Timeline.RecordOnLink(connection: $0.connectionID, record: $0.record ?? 0), $0.kind) }, uniquingKeysWith: { a, _ in a })
        for (index, command) in analysis.vendorCommands.enumerated() where !absorbed.contains(index) {
            let failedAs = command.outcome.failureKind == nil ? nil
                : otherFailures[Timeline.RecordOnLink(connection: command.connectionID, record: command.record)]
            if let failedAs { commandFailedAs[index] = failedAs }
            place(index, device: command.deviceID ?? deviceOfConnection[command.connectionID] ?? nil, in: &commands) {
                [Timeline.vendorEvent(command, toldBy: failedAs)]
            }
        }
        // A rejected LE Create Connection fails as an HCI command with no device: it belongs to
        // the device the attempt was for.
        var rejected: [Int64: DeviceID] = [:]
        for attempt in report.attempts where attempt.outcome == .rejected {
            if let end = attempt.endUs, let device = attempt.deviceID { rejected[end] = device }
        }
        for (index, failure) in report.failures.enumerated() where !inRuns.contains(index) {
            let device = failure.deviceID ?? (failure.kind == .hciCommandFailed ? rejected[failure.timeUs] : nil)
            place(index, device: device, in: &failures) { [Timeline.failureEvent(failure)] }
        }
        for (index, notice) in report.notices.enumerated() {
            place(index, device: notice.deviceID, in: &notices) { [Timeline.noticeEvent(notice)] }
        }
        self.host = Self.ordered(host)
    }

    /// Every device's lane, in the order devices were first seen, each built as it is read.
    public var lanes: some Sequence<TimelineLane> {
        analysis.report.devices.lazy.compactMap { lane(for: $0) }
    }

    /// The lanes as `filter` leaves them, each built and filtered as it is read.
    public func lanes(_ filter: TimelineFilter) -> some Sequence<TimelineLane> {
        lanes.lazy.compactMap { filter.apply(to: $0, startUs: startUs) }
    }

    /// The host's events as `filter` leaves them.
    public func host(_ filter: TimelineFilter) -> [TimelineEvent] {
        filter.apply(host: host, startUs: startUs)
    }

    /// The device's events in time order, nil when it has none.
    public func lane(for device: Device) -> TimelineLane? {
        let report = analysis.report
        var events = Timeline.advertising(device)
        let gatt = gattByDevice[device.id] ?? []
        for index in connections[device.id] ?? [] {
            let connection = report.connections[index]
            events += Timeline.connectionEvents(connection, gatt: gatt, lost: lostLinks.contains(connection.id),
                                                central: centralDevice[connection.id])
        }
        for index in centralOf[device.id] ?? [] { events.append(centralEvent(report.connections[index])) }
        for index in cancelledAttempts[device.id] ?? [] { events.append(Self.cancelledEvent(report.attempts[index])) }
        for index in commands[device.id] ?? [] {
            events.append(Timeline.vendorEvent(analysis.vendorCommands[index], toldBy: commandFailedAs[index]))
        }
        for index in failures[device.id] ?? [] { events.append(Timeline.failureEvent(report.failures[index])) }
        for index in notices[device.id] ?? [] { events.append(Timeline.noticeEvent(report.notices[index])) }
        for index in failureRuns[device.id] ?? [] { events.append(Timeline.failureRunEvent(analysis.vendorFailureRuns[index])) }
        guard !events.isEmpty else { return nil }
        return TimelineLane(device: device, title: TimelineFormat.title(device), events: Self.ordered(events))
    }


    /// The central's side of a link told in its peripheral's lane: one line pointing there.
    private func centralEvent(_ connection: Connection) -> TimelineEvent {
        let peripheral = connection.deviceID.flatMap { id in analysis.report.devices.first { $0.id == id } }
        let text = peripheral.map { "connected as central to \(TimelineFormat.title($0)): the link's lines are under \($0.id)" }
            ?? "connected as central: the link's lines are under Host and capture"
        return TimelineEvent(kind: .central, timeUs: connection.startUs, connectionID: connection.id, text: text,
                             records: [connection.startRecord])
    }

    static func cancelledEvent(_ attempt: ConnectionAttempt) -> TimelineEvent {
        let waited = attempt.endUs.map { " after waiting " + TimelineFormat.duration($0 - attempt.createUs) } ?? ""
        return TimelineEvent(kind: .attempt, timeUs: attempt.createUs, endUs: attempt.endUs,
                             text: "connection attempt cancelled by the host" + waited)
    }

    /// In time order; at one instant, as `Timeline.rank` says, then as listed.
    static func ordered(_ list: [TimelineEvent]) -> [TimelineEvent] {
        list.enumerated().sorted { ($0.element.timeUs, Timeline.rank($0.element), $0.offset)
            < ($1.element.timeUs, Timeline.rank($1.element), $1.offset) }.map(\.element)
    }
}

extension Timeline {
    /// The failures (indices in `failures`) and the vendor command lines (indices in `commands`)
    /// a run of failures stands for: of its connection and kind within its span, and the
    /// summaries of commands that all failed within it.
    static func toldByFailureRuns(_ runs: [VendorFailureRun], failures: [Failure],
                                  commands: [VendorCommandEvent]) -> (failures: Set<Int>, commands: Set<Int>) {
        guard !runs.isEmpty else { return ([], []) }
        let byConnection = Dictionary(grouping: runs, by: \.connection)
        var toldFailures: Set<Int> = []
        for (index, failure) in failures.enumerated() {
            guard let connection = failure.connectionID, let candidates = byConnection[connection] else { continue }
            if candidates.contains(where: { $0.kind == failure.kind && $0.firstUs <= failure.timeUs && failure.timeUs <= $0.lastUs }) {
                toldFailures.insert(index)
            }
        }
        var toldCommands: Set<Int> = []
        for (index, command) in commands.enumerated() {
            guard let run = command.run, run.failed == run.count, let candidates = byConnection[command.connectionID] else { continue }
            if candidates.contains(where: { $0.firstUs <= command.timeUs && run.endUs <= $0.lastUs }) { toldCommands.insert(index) }
        }
        return (toldFailures, toldCommands)
    }

    /// A run of failures as one red line over its span.
    static func failureRunEvent(_ run: VendorFailureRun) -> TimelineEvent {
        TimelineEvent(kind: .failure, severity: .error, timeUs: run.firstUs, endUs: run.lastUs, connectionID: run.connection,
                      text: run.text, failureKind: run.kind, records: [run.firstRecord])
    }

    /// The vendor commands that did not end well and that a vendor failure of the profile
    /// already tells (with its reason): on the same connection, at or before the failure, with
    /// no successful command in between. Their indices in `commands`.
    static func vendorCommandsToldByFailures(_ commands: [VendorCommandEvent], failures: [Failure]) -> Set<Int> {
        let vendorFailures = Dictionary(grouping: failures.filter { $0.kind.rawValue.hasPrefix("vendor-") }) { $0.connectionID }
        guard !vendorFailures.isEmpty else { return [] }
        // Times only, of the connections with vendor failures (a copy of the commands would weigh
        // on the timeline's peak memory).
        var fine: [ConnectionID: [Int64]] = [:]
        for command in commands where command.outcome.failureKind == nil && vendorFailures[command.connectionID] != nil {
            fine[command.connectionID, default: []].append(command.timeUs)
        }
        var told: Set<Int> = []
        for (index, command) in commands.enumerated() where command.outcome.failureKind != nil {
            guard let failure = vendorFailures[command.connectionID]?.filter({ $0.timeUs >= command.timeUs })
                .min(by: { $0.timeUs < $1.timeUs }) else { continue }
            if !(fine[command.connectionID] ?? []).contains(where: { $0 > command.timeUs && $0 < failure.timeUs }) {
                told.insert(index)
            }
        }
        return told
    }

    /// A record of one connection: where a failure and a vendor command meet.
    struct RecordOnLink: Hashable {
        var connection: ConnectionID?
        var record: Int
    }

    /// At one instant: what happened first reads first; summaries before the end of their span.
    static func rank(_ event: TimelineEvent) -> Int {
        switch event.kind {
        case .traffic: 1
        case .disconnected: 2
        case .failure, .notice: 3
        default: 0
        }
    }

    /// Advertising bursts of every address in time order, with a line where the address changes.
    static func advertising(_ device: Device) -> [TimelineEvent] {
        let bursts = device.addresses.flatMap { address in address.bursts.map { (address, $0) } }
            .sorted { $0.1.startUs < $1.1.startUs }
        var events: [TimelineEvent] = []
        var previous: DeviceAddress?
        for (address, burst) in bursts {
            if let previous, previous.address != address.address {
                events.append(TimelineEvent(kind: .addressChange, timeUs: burst.startUs,
                                            text: "address changed: \(previous.address) → \(address.address) (\(address.type.rawValue))"))
            }
            previous = address
            var text = burst.count == 1 ? "advertising: 1 advertisement" : "advertising: \(burst.count) advertisements"
            if burst.count > 1 {
                text += " over " + TimelineFormat.duration(burst.endUs - burst.startUs)
                text += ", every ~" + TimelineFormat.duration((burst.endUs - burst.startUs) / Int64(burst.count - 1))
            }
            if let low = burst.rssiMin, let high = burst.rssiMax {
                text += low == high ? ", RSSI \(low) dBm" : ", RSSI \(low)…\(high) dBm"
            }
            events.append(TimelineEvent(kind: .advertising, timeUs: burst.startUs, endUs: burst.endUs, text: text))
        }
        return events
    }

    /// `connected: central C0:11:22:33:44:55 (public) → peripheral D1:5C:F0:EE:02:8F (random-static)`,
    /// the central's device id before its address when the central is a device of the capture.
    static func airParties(_ connection: Connection, central: DeviceID?) -> String {
        func party(_ address: BluetoothAddress?, _ type: AddressType?) -> String {
            guard let address else { return "unknown" }
            return type.map { "\(address) (\(AddressKind($0, address).rawValue))" } ?? address.description
        }
        guard connection.createUs != nil else { return "joined on air (no CONNECT_IND captured)" }
        return "connected: central " + (central.map { "\($0) " } ?? "") + party(connection.centralAddress, connection.centralAddressType)
            + " → peripheral " + party(connection.peerAddress, connection.peerAddressType)
    }

    /// Who ended the link, in the words the other lines use (the JSON's `local-host` is not one):
    /// over HCI the host, the device or the controller; on air the LL_TERMINATE_IND's sender.
    static func initiatorName(_ initiator: DisconnectInitiator, _ connection: Connection) -> String {
        let air = if case .air = connection.link { true } else { false }
        switch initiator {
        case .localHost: return air ? "the central" : "the host"
        case .remote: return air ? "the peripheral" : "the device"
        case .controller: return "the controller"
        case .unknown: return "unknown"
        }
    }

    static func connectionEvents(_ connection: Connection, gatt: [GATTAttribute], lost: Bool, central: DeviceID?) -> [TimelineEvent] {
        let id = connection.id
        var events: [TimelineEvent] = []
        var text: String
        if connection.startedBeforeCapture {
            text = "connected before the capture"
            if connection.role != .unknown { text += " as \(connection.role.rawValue)" }
        } else if case .air = connection.link {
            // On air there is no local side: CONNECT_IND names the central (InitA) and the
            // peripheral (AdvA, the device this timeline is about).
            text = airParties(connection, central: central)
            if let create = connection.createUs, connection.startUs > create {
                text += ", \(TimelineFormat.duration(connection.startUs - create)) after CONNECT_IND"
            }
        } else {
            text = "connected as \(connection.role.rawValue)"
        }
        if connection.transport == .brEdr { text += " over BR/EDR" }
        if let handle = connection.handle { text += ", handle \(Hex.code(handle, width: 4))" }
        if let access = connection.accessAddress { text += ", access address \(Hex.code(access, width: 8))" }
        if case .hci = connection.link, let create = connection.createUs {
            text += ", \(TimelineFormat.duration(connection.startUs - create)) after the request"
        }
        if let first = connection.parameters.first { text += "; " + parameters(first) }
        // A BR/EDR link has an ATT MTU only where it carries ATT (PSM 0x001F).
        if connection.transport == .le || !connection.bearers.isEmpty { text += "; MTU \(connection.mtu)" }
        if let length = connection.dataLength { text += ", data length \(length.tx)/\(length.rx)" }
        if let phy = connection.phy { text += ", PHY \(phy.tx)/\(phy.rx)" }
        events.append(TimelineEvent(kind: .connected, timeUs: connection.startUs, endUs: connection.endUs, connectionID: id,
                                    text: text, records: [connection.startRecord]))
        for update in connection.parameters.dropFirst() {
            events.append(TimelineEvent(kind: .parameters, timeUs: update.timeUs, connectionID: id,
                                        text: "parameters updated: " + parameters(update)))
        }
        if let discovery = connection.discovery {
            events.append(TimelineEvent(kind: .discovery, timeUs: discovery.startUs, endUs: discovery.endUs, connectionID: id,
                                        text: "discovery: " + found(in: gatt, over: discovery)))
        }
        if let discovery = connection.otherSideDiscovery {
            // The device as a GATT client of the phone (ANCS, the time): not the device's database.
            let side: GATTServer = connection.accessAddress != nil ? .central : .host
            let requests = connection.transactionTotals.byKey.filter { $0.key.server != .device && discoveryOpcodes.contains($0.key.opcode) }
                .map(\.value.count).reduce(0, +)
            // Requests that named no declaration (a search by UUID for what the phone lacks, a read
            // by characteristic UUID) discovered nothing of its layout.
            let text = connection.otherSideGATT.isEmpty
                ? "the device queried \(side.possessive)GATT server: \(TimelineFormat.counted(requests, "discovery request")) in "
                    + TimelineFormat.duration(discovery.endUs - discovery.startUs) + ", which named no service or characteristic"
                : "the device discovered \(side.possessive)GATT server: " + found(in: connection.otherSideGATT, over: discovery)
            events.append(TimelineEvent(kind: .discovery, timeUs: discovery.startUs, endUs: discovery.endUs,
                                        connectionID: id, text: text))
        }
        events += security(connection)
        for run in connection.rediscoveries {
            events.append(TimelineEvent(kind: .discovery, timeUs: run.startUs, endUs: run.endUs, connectionID: id,
                                        text: "rediscovery in " + TimelineFormat.duration(run.endUs - run.startUs)))
        }
        for subscription in connection.subscriptions {
            let what = [subscription.notifications ? "notifications" : nil, subscription.indications ? "indications" : nil]
                .compactMap { $0 }
            let text = what.isEmpty ? "unsubscribed from \(subscription.characteristic)"
                : "subscribed to \(subscription.characteristic) (\(what.joined(separator: ", ")))"
            events.append(TimelineEvent(kind: .subscription, timeUs: subscription.timeUs, connectionID: id,
                                        handles: [subscription.cccdHandle], text: text))
        }
        let spanEnd = connection.endUs ?? connection.lastActivityUs
        events += traffic(connection, gatt: gatt, at: spanEnd)
        for use in connection.channels {
            events.append(TimelineEvent(kind: .traffic, timeUs: use.firstUs, endUs: use.lastUs, connectionID: id,
                                        text: channelText(use) + ": " + TimelineFormat.counted(use.packets, "L2CAP PDU") + ", "
                                            + "\(use.bytes) bytes, not analysed"))
        }
        for use in connection.packetsNotAnalysed {
            events.append(TimelineEvent(kind: .traffic, timeUs: use.firstUs, endUs: use.lastUs, connectionID: id,
                                        text: use.name + ": " + TimelineFormat.counted(use.packets, "packet") + ", not analysed",
                                        records: [use.firstRecord]))
        }
        if let end = connection.endUs, !lost {
            var text = "disconnected after " + TimelineFormat.duration(end - connection.startUs)
            if let reason = connection.disconnectReason { text += ": \(reason.name) (\(Hex.code(reason.rawValue)))" }
            if let initiator = connection.initiator, initiator != .unknown { text += ", by " + initiatorName(initiator, connection) }
            if let inferred = connection.endInferred { text += " (\(inferred))" }
            events.append(TimelineEvent(kind: .disconnected, timeUs: end, connectionID: id, text: text,
                                        records: connection.endRecord.map { [$0] } ?? []))
        }
        return events
    }

    /// A line per pairing and per encryption start, refresh or pause, and per Security Request
    /// that something answered. Failed ones are told by their failure's line, ignored Security
    /// Requests by their warning's.
    static func security(_ connection: Connection) -> [TimelineEvent] {
        let id = connection.id
        var events: [TimelineEvent] = []
        for request in connection.security.securityRequests where request.outcome == .pairing || request.outcome == .encryption {
            let asks = [request.bonding ? "bonding" : "no bonding", request.mitm ? "MITM" : nil].compactMap { $0 }
            let from = ConnectionSecurity.spoken(request.from)
            events.append(TimelineEvent(kind: .security, timeUs: request.timeUs, connectionID: id,
                                        text: "Security Request from \(from) (\(asks.joined(separator: ", "))): answered by \(request.outcome.rawValue)",
                                        records: [request.record]))
        }
        for pairing in connection.security.pairings where pairing.result != .failed {
            var text = "pairing started by " + ConnectionSecurity.spoken(pairing.initiator)
            if pairing.method != .unknown {
                text += ": " + Self.scheme(pairing, transport: connection.transport) + (pairing.bonding ? ", bonding" : "")
            }
            if let io = pairing.initiatorIOCapability, let other = pairing.responderIOCapability {
                text += " (IO \(io) / \(other))"
            }
            switch pairing.result {
            case .success:
                text += "; done in " + TimelineFormat.duration((pairing.endUs ?? pairing.startUs) - pairing.startUs)
                let keys = [pairing.initiatorKeys.isEmpty ? nil : "initiator " + pairing.initiatorKeys.joined(separator: " "),
                            pairing.responderKeys.isEmpty ? nil : "responder " + pairing.responderKeys.joined(separator: " ")]
                    .compactMap { $0 }
                if !keys.isEmpty { text += ", keys: " + keys.joined(separator: ", ") }
            case .incomplete:
                text += connection.endUs == nil ? "; no result before the capture ended" : "; no result before the link ended"
            case .failed:
                break
            }
            events.append(TimelineEvent(kind: .security, timeUs: pairing.startUs, endUs: pairing.endUs, connectionID: id,
                                        text: text, records: [pairing.startRecord]))
        }
        for change in connection.security.encryption where change.status == 0 {
            let text: String
            switch change.kind {
            case .start: text = "encryption started" + (change.keySize.map { ", key size \($0)" } ?? "")
            case .refresh: text = "encryption key refreshed"
            case .pause: text = "encryption paused"
            }
            events.append(TimelineEvent(kind: .security, timeUs: change.timeUs, connectionID: id, text: text,
                                        records: change.record.map { [$0] } ?? []))
        }
        return events
    }

    /// `RFCOMM (PSM 0x0003)`, or `CID 0x0077 (opening not captured)`.
    static func channelText(_ use: ChannelUse) -> String {
        if let psm = use.psm { return "\(PSM(rawValue: psm).name) (PSM \(Hex.code(psm, width: 4)))" }
        return use.cid < 0x0040 ? ChannelID(rawValue: use.cid).name
            : "CID \(Hex.code(use.cid, width: 4)) (its opening not captured)"
    }

    /// `interval 30 ms, latency 0, timeout 4 s`.
    static func parameters(_ p: ConnectionParameters) -> String {
        "interval \(TimelineFormat.duration(Int64(p.intervalUs))), latency \(p.latency), "
            + "timeout \(TimelineFormat.duration(Int64(p.supervisionTimeoutMs) * 1000))"
    }

    /// `4 services, 7 characteristics in 338 ms (Generic Access (1800), …)`: what a discovery found
    /// in a database and how long it took.
    static func found(in gatt: [GATTAttribute], over discovery: (startUs: Int64, endUs: Int64)) -> String {
        let services = gatt.filter { $0.kind == .service || $0.kind == .secondaryService }
        let characteristics = gatt.filter { $0.kind == .characteristic }.count
        return TimelineFormat.counted(services.count, "service") + ", " + TimelineFormat.counted(characteristics, "characteristic")
            + " in " + TimelineFormat.duration(discovery.endUs - discovery.startUs)
            + (services.isEmpty ? "" : " (" + TimelineFormat.list(services.map { TimelineFormat.name($0.uuid) }) + ")")
    }

    /// Requests issued by discovery: summarized by the discovery line instead.
    static let discoveryOpcodes: Set<UInt8> = [0x04, 0x06, 0x08, 0x10]

    /// One line per characteristic: requests with count, latency and errors; values that need no
    /// answer counted. With `--verbose` the listed transactions appear under it.
    static func traffic(_ connection: Connection, gatt: [GATTAttribute], at timeUs: Int64) -> [TimelineEvent] {
        var parts: [ServedHandle: [String]] = [:]
        var errors: [ServedHandle: Int] = [:]
        for (key, aggregate) in connection.transactionTotals.byKey {
            guard let handle = key.handle, !discoveryOpcodes.contains(key.opcode) else { continue }
            var part = "\(ATTOpcode(rawValue: key.opcode).name) ×\(aggregate.count)"
            let notes = [aggregate.latencies.median.map { "median \(TimelineFormat.duration($0))" },
                         aggregate.outOfTurn > 0 ? "\(aggregate.outOfTurn) sent while another was outstanding" : nil].compactMap { $0 }
            if !notes.isEmpty { part += " (" + notes.joined(separator: "; ") + ")" }
            let served = ServedHandle(server: key.server, handle: handle)
            parts[served, default: []].append(part)
            errors[served, default: 0] += aggregate.errors + aggregate.unanswered
        }
        // Write Commands are counted as transactions too (no response expected): once is enough.
        let counted = Set(connection.transactionTotals.byKey.map {
            ValueCountKey(opcode: $0.key.opcode, handle: $0.key.handle ?? 0, server: $0.key.server)
        })
        for (key, count) in connection.valueCounts where !counted.contains(key) {
            parts[ServedHandle(server: key.server, handle: key.handle), default: []]
                .append("\(ATTOpcode(rawValue: key.opcode).name) ×\(count)")
        }
        var events = parts.keys.sorted().map { served in
            let failed = errors[served] ?? 0
            let attribute = served.server == .device ? TimelineFormat.attribute(served.handle, in: gatt)
                : served.server.possessive + TimelineFormat.attribute(served.handle, in: connection.otherSideGATT)
            let text = attribute + ": " + (parts[served] ?? []).joined(separator: ", ") + (failed > 0 ? ", \(failed) not ok" : "")
            return TimelineEvent(kind: .traffic, timeUs: timeUs, timed: false, connectionID: connection.id,
                                 handles: [served.handle], text: text)
        }
        // The listed transactions under one line, in time order, so that a notification comes
        // after the write that triggered it whatever their characteristics.
        let listed = (connection.transactions + connection.notifications).filter { $0.handle != nil && !discoveryOpcodes.contains($0.opcode.rawValue) }
            .enumerated().sorted { ($0.element.requestUs, $0.offset) < ($1.element.requestUs, $1.offset) }.map(\.element)
        if !listed.isEmpty {
            let handles = Array(Set(listed.compactMap(\.handle))).sorted()
            events.append(TimelineEvent(kind: .traffic, timeUs: timeUs, timed: false, connectionID: connection.id,
                                        handles: handles, text: "transactions in time order:",
                                        details: listed.map { transactionDetail($0, gatt: gatt, otherSideGATT: connection.otherSideGATT) },
                                        verboseOnly: true))
        }
        return events
    }

    /// A handle of one side's GATT server: the device's attributes first, then the other side's.
    struct ServedHandle: Hashable, Comparable {
        var server: GATTServer
        var handle: UInt16

        static func < (a: Self, b: Self) -> Bool {
            a.server != b.server ? a.server < b.server : a.handle < b.handle
        }
    }

    /// `FFE1: Write Request aa0159… → Write Response in 21 ms`, `Battery Level (2A19): Read
    /// Request → Read Response 57 in 20 ms`, `FFE2: Handle Value Notification aa81…`.
    static func transactionDetail(_ t: ATTTransaction, gatt: [GATTAttribute] = [], otherSideGATT: [GATTAttribute] = []) -> TimelineDetail {
        let server = t.server
        let attribute = t.handle.map { server.possessive + TimelineFormat.attribute($0, in: server == .device ? gatt : otherSideGATT) }
        var text = (attribute.map { $0 + ": " } ?? "") + t.opcode.name
        if let value = t.value, !value.isEmpty { text += " " + shortHex(value, length: value.count) }
        let severity: TimelineEvent.Severity
        switch t.outcome {
        case .ok, .noResponseExpected:
            severity = .normal
            if let response = t.responseOpcode { text += " → \(response.name)" }
            if let value = t.responseValue {
                text += " " + (value.isEmpty ? "(empty)" : shortHex(value, length: t.responseValueLength ?? value.count))
            }
        case .error:
            severity = .error
            text += " → Error Response" + (t.errorCode.map { ": \($0.name) (\(Hex.code($0.rawValue)))" } ?? "")
        case .timeout, .noResponse:
            severity = t.endNotSeen ? .warning : .error
            text += " → no response (\(t.outcome.rawValue))"
        case .malformed:
            severity = t.answerHasExtraBytes ? .warning : .error
            text += " → " + (t.responseOpcode?.name ?? "answer") + " (malformed)"
        }
        if let latency = t.latencyUs { text += " in " + TimelineFormat.duration(latency) }
        return TimelineDetail(timeUs: t.requestUs, records: [t.requestRecord] + (t.responseRecord.map { [$0] } ?? []),
                              severity: severity, text: text, handle: t.handle)
    }

    /// The first 16 bytes in hex, `…` when `length` is more.
    static func shortHex(_ value: [UInt8], length: Int) -> String {
        Hex.string(Array(value.prefix(16))) + (length > 16 ? "…" : "")
    }

    /// A command's line, or a run's (`vendor 180 more commands went well (…)`), red when it failed
    /// or stands for failed commands. `toldBy`: the kind of the failure that counts its failure,
    /// when that is not a vendor kind of its own (a write never answered), which the line names.
    static func vendorEvent(_ command: VendorCommandEvent, toldBy: FailureKind? = nil) -> TimelineEvent {
        let kind = toldBy == nil ? command.outcome.failureKind : nil
        let severity: TimelineEvent.Severity = command.outcome.failureKind != nil || (command.run?.failed ?? 0) > 0 ? .error : .normal
        var text = "vendor " + command.summary
        if let kind { text = "\(kind.rawValue): " + text }
        if let toldBy { text += " (its write: \(toldBy.rawValue))" }
        return TimelineEvent(kind: .vendorCommand, severity: severity, timeUs: command.timeUs, endUs: command.run?.endUs,
                             connectionID: command.connectionID, text: text, failureKind: kind, records: [command.record])
    }

    /// A notice's line: a warning yellow, info plain (and shown by the terminal only with `-v`).
    static func noticeEvent(_ notice: Failure) -> TimelineEvent {
        let text = "\(notice.kind.rawValue): \(notice.summary)" + (notice.count > 1 ? " (×\(notice.count))" : "")
        return TimelineEvent(kind: .notice, severity: notice.severity == .warning ? .warning : .normal,
                             timeUs: notice.timeUs, connectionID: notice.connectionID, handles: handles(of: notice),
                             text: text, failureKind: notice.kind, records: notice.record.map { [$0] } ?? [])
    }

    static func handles(of failure: Failure) -> [UInt16] {
        failure.details.compactMap { field -> UInt16? in
            guard field.name == "handle" else { return nil }
            switch field.value {
            case .int(let v): return UInt16(exactly: v)
            case .uint(let v): return UInt16(exactly: v)
            default: return nil
            }
        }
    }

    /// A failure's line is red; a finding of lower severity that reaches it (a caller's own
    /// list) is yellow. What was left open by the end of the capture is a notice, not a failure
    /// (docs/failures.md).
    static func failureEvent(_ failure: Failure) -> TimelineEvent {
        let severity: TimelineEvent.Severity = failure.severity == .failure ? .error : .warning
        return TimelineEvent(kind: .failure, severity: severity, timeUs: failure.timeUs, connectionID: failure.connectionID,
                             handles: handles(of: failure), text: "\(failure.kind.rawValue): \(failure.summary)",
                             failureKind: failure.kind, records: failure.record.map { [$0] } ?? [])
    }
}
