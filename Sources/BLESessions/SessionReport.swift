import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// Everything the analysis found, ready for renderers.
public struct SessionReport: Sendable {
    public var stats: CaptureStatistics
    public var devices: [Device]
    public var connections: [Connection]
    public var attempts: [ConnectionAttempt]
    public var commands: [CommandTotals]
    /// In time order: findings of severity `failure` only.
    public var failures: [Failure]
    /// Warnings and info (a run of one on one link is one entry with a count), in time order.
    public var notices: [Failure] = []
    public var transactionListing: SessionOptions.TransactionListing
    /// True when transactions were left out of the listing for the capture's cap
    /// (`SessionOptions.transactionsListedPerCapture`).
    public var transactionListingCapped = false
}

extension SessionReport {
    /// Failures and notices together, in time order (failures first at one instant).
    public var findings: [Failure] {
        (failures + notices).enumerated().sorted { ($0.element.timeUs, $0.offset) < ($1.element.timeUs, $1.offset) }
            .map(\.element)
    }

    /// Adds failures found above this layer (vendor decoding), keeping time order.
    public mutating func merge(failures more: [Failure]) {
        let (more, lesser) = (more.filter { $0.severity == .failure }, more.filter { $0.severity != .failure })
        if !lesser.isEmpty {
            for notice in lesser { stats.noticesByKind[notice.kind, default: 0] += notice.count }
            notices = (notices + lesser).enumerated()
                .sorted { ($0.element.timeUs, $0.offset) < ($1.element.timeUs, $1.offset) }.map(\.element)
        }
        for failure in more { stats.failuresByKind[failure.kind, default: 0] += 1 }
        failures = (failures + more).enumerated()
            .sorted { ($0.element.timeUs, $0.offset) < ($1.element.timeUs, $1.offset) }.map(\.element)
    }
}

extension SessionAnalyzer {
    /// The channels not analysed over all connections: by PSM, or by CID where the PSM is unknown.
    static func channelTotals(_ connections: [Connection]) -> [ChannelUse] {
        var totals: [ChannelUse] = []
        for connection in connections {
            for use in connection.channels {
                if let i = totals.firstIndex(where: { $0.psm == use.psm && (use.psm != nil || $0.cid == use.cid) }) {
                    totals[i].packets += use.packets
                    totals[i].bytes += use.bytes
                    totals[i].firstUs = min(totals[i].firstUs, use.firstUs)
                    totals[i].lastUs = max(totals[i].lastUs, use.lastUs)
                } else {
                    totals.append(use)
                }
            }
        }
        return totals.sorted { ($0.psm ?? 0xFFFF, $0.cid) < ($1.psm ?? 0xFFFF, $1.cid) }
    }

    /// Closes what is still open at the end of the capture and builds the report.
    /// `diagnostics` are the reader's findings about the file (truncation becomes a failure).
    public mutating func finish(diagnostics: [CaptureDiagnostic] = [], pipelineIssues: [PacketIssue] = [])
        -> (report: SessionReport, events: [SessionEvent]) {
        var events: [SessionEvent] = []
        let end = stats.lastTimeUs ?? 0
        for issue in pipelineIssues { count(issue) }
        for (opcode, count) in attOpcodeCounts.enumerated() where count > 0 { stats.attPDUs[UInt8(opcode)] = count }
        expireTransactions(now: end, events: &events)
        for (link, open) in live.all.sorted(by: { $0.value.connection.startUs < $1.value.connection.startUs }) {
            if case .air = link, endSilent(link, open, atCaptureEnd: true, now: end, events: &events) { continue }
            if open.disconnectRequested, open.disconnectAccepted, let request = open.disconnectRequest {
                disconnectNotCaptured(link, open, request: request, events: &events)
                continue
            }
            for var pending in open.allPending {
                resolve(&pending, in: open, outcome: .noResponse, responseUs: nil, record: nil, response: nil,
                        now: end, why: "the capture ended first", unseenEnd: true)
            }
            open.removeAllPending()
            fail(.danglingConnection, severity: .warning, at: open.connection.lastActivityUs, record: nil, slot: open.slot,
                 connection: open.connection.id,
                 "Connection to \(label(slot: open.slot)) still up when the capture ended (last packet \(Self.seconds(end - open.connection.lastActivityUs)) before the end)")
            keep(open)
        }
        for create in pendingCreates where create.accepted {
            let slot = create.peer.map { registry.slot($0, type: create.peerType ?? .publicDevice) }
            attempts.append(ConnectionAttempt(peerAddress: create.peer, deviceID: slot.map { registry.deviceID(of: $0) },
                                              createUs: create.createUs, endUs: nil, outcome: .neverCompleted, status: nil))
            guard create.peer != nil else {
                // A background attempt (filter accept list) waits for any listed device to
                // advertise: its staying open is how it works.
                fail(.backgroundConnectionPending, severity: .info, at: create.createUs, record: create.record, slot: nil,
                     connection: nil, "Background connection attempt (filter accept list) still pending when the capture "
                        + "ended, \(Self.seconds(end - create.createUs)) after it began")
                continue
            }
            fail(.connectionNeverCompleted, severity: .warning, at: create.createUs, record: create.record, slot: slot, connection: nil,
                 "Connection to \(label(slot: slot)) requested \(Self.seconds(end - create.createUs)) before the end, never completed")
        }
        for command in pendingCommands.values.joined() {
            commandTotals[command.opcode.rawValue]?.unanswered += 1
        }
        truncationFailures(diagnostics)
        if stats.outOfOrderRecords > 0 {
            fail(.recordsOutOfOrder, severity: .warning, at: stats.firstTimeUs ?? 0, record: stats.firstOutOfOrderRecord,
                 slot: nil, connection: nil,
                 "\(stats.outOfOrderRecords) record(s) are timed earlier than a record before them (the first is "
                    + "#\(stats.firstOutOfOrderRecord ?? 0), up to \(Self.seconds(stats.largestStepBackUs)) back): times are "
                    + "counted from the earliest record, and durations across them may be off")
            stats.noticesByKind[.recordsOutOfOrder] = stats.outOfOrderRecords
            if let index = notices.lastIndex(where: { $0.kind == .recordsOutOfOrder }) {
                notices[index].count = stats.outOfOrderRecords
            }
        }
        sharedLosses()
        // Merges after a connection or failure was recorded may have changed a device's id.
        for i in finished.indices { finished[i].deviceID = finalDeviceID(finished[i].deviceID) }
        // Sorted in place: the report shares the array rather than holding a second copy.
        finished.sort { $0.startUs < $1.startUs }
        stats.channelsNotAnalysed = Self.channelTotals(finished)
        for i in attempts.indices { attempts[i].deviceID = finalDeviceID(attempts[i].deviceID) }
        for i in failures.indices { failures[i].deviceID = finalDeviceID(failures[i].deviceID) }
        for i in notices.indices { notices[i].deviceID = finalDeviceID(notices[i].deviceID) }
        let report = SessionReport(
            stats: stats, devices: buildDevices(), connections: finished,
            attempts: attempts.sorted { $0.createUs < $1.createUs },
            commands: commandTotals.values.sorted { $0.opcode.rawValue < $1.opcode.rawValue },
            failures: failures.enumerated().sorted { ($0.element.timeUs, $0.offset) < ($1.element.timeUs, $1.offset) }
                .map(\.element),
            notices: notices.enumerated().sorted { ($0.element.timeUs, $0.offset) < ($1.element.timeUs, $1.offset) }
                .map(\.element),
            transactionListing: options.transactions, transactionListingCapped: transactionListingCapped)
        return (report, events)
    }

    /// Links of one host (one adapter; over the air, one sniffer) lost by supervision timeout
    /// (0x08) whose silence began at the same moment: each `link-lost` names the others
    /// (`lostWith`): a shared cause (the host's radio, interference) is likelier than each device.
    mutating func sharedLosses() {
        // A link's silence begins at its last packet heard, known to within one connection
        // interval (up to 50 ms on phones): starts within 100 ms are one moment at that resolution.
        let windowUs: Int64 = 100_000
        var losses: [(failure: Int, connection: ConnectionID, host: UInt16?, silentUs: Int64)] = []
        for (index, failure) in failures.enumerated() where failure.kind == .linkLost {
            guard failure.details.contains(where: { $0.name == "reason" && $0.value == .int(0x08) }),
                  let id = failure.connectionID, let connection = finished.first(where: { $0.id == id }) else { continue }
            let host: UInt16? = switch connection.link {
            case .hci(let adapter, _): adapter ?? 0
            case .air: nil
            }
            let timeoutUs = Int64(connection.parameters.last?.supervisionTimeoutMs ?? 0) * 1000
            losses.append((index, id, host, failure.timeUs - timeoutUs))
        }
        guard losses.count > 1 else { return }
        for loss in losses {
            let others = losses.filter {
                $0.connection != loss.connection && $0.host == loss.host && abs($0.silentUs - loss.silentUs) <= windowUs
            }
            guard !others.isEmpty else { continue }
            let spread = others.map { abs($0.silentUs - loss.silentUs) }.max() ?? 0
            let names = others.map(\.connection.description)
            // The moment is computed, not a packet's time: the summary says how, for readers checking times.
            failures[loss.failure].summary += "; \(names.joined(separator: ", ")) went silent at the same moment (by their "
                + "supervision timeouts, within \(Self.seconds(spread))): a shared cause (the host's radio, interference) is "
                + "likelier than a fault of this device"
            failures[loss.failure].details.append(Field("lostWith", .list(names.map { .string($0) })))
        }
    }

    /// A link the host asked to disconnect (Command Status: success) whose Disconnection
    /// Complete the capture lacks: it ended at the request as far as the capture tells, not
    /// dangling (the capture stopped before the controller reported it).
    mutating func disconnectNotCaptured(_ link: LinkID, _ conn: LiveConnection, request: (timeUs: Int64, record: Int),
                                        events: inout [SessionEvent]) {
        _ = live.remove(link)
        conn.connection.endUs = max(request.timeUs, conn.connection.lastActivityUs)
        conn.connection.endRecord = request.record
        conn.connection.initiator = .localHost
        conn.connection.endInferred = "disconnect requested, not captured"
        for var pending in conn.allPending {
            resolve(&pending, in: conn, outcome: .noResponse, responseUs: nil, record: nil, response: nil,
                    now: request.timeUs, why: "the host asked to disconnect first", unseenEnd: true)
        }
        conn.removeAllPending()
        fail(.disconnectNotCaptured, severity: .info, at: request.timeUs, record: request.record, slot: conn.slot,
             connection: conn.connection.id,
             "Disconnect requested by the host (accepted), its completion not captured before the end")
        keep(conn)
        events.append(.connectionEnded(connection: conn.id,
                                       timeUs: conn.connection.endUs ?? request.timeUs))
    }

    /// Device ids name the union-find root of the time (its slot + 1); roots only move to
    /// earlier slots when devices merge, so an old id maps to the final one through its slot.
    mutating func finalDeviceID(_ id: DeviceID?) -> DeviceID? {
        guard let id, id.number <= registry.states.count else { return id }
        return registry.deviceID(of: id.number - 1)
    }

    mutating func truncationFailures(_ diagnostics: [CaptureDiagnostic]) {
        let end = stats.lastTimeUs ?? 0
        for diagnostic in diagnostics where diagnostic.kind == .truncatedFinalRecord {
            fail(.captureTruncated, severity: .warning, at: end, record: diagnostic.recordNumber, slot: nil, connection: nil,
                 "The file ends inside record \(diagnostic.recordNumber.map(String.init) ?? "?"): \(diagnostic.message)")
        }
        if stats.truncatedRecords > 0 {
            let hidden = stats.hiddenATTPDUs > 0
                ? ": \(stats.hiddenATTPDUs) ATT PDU(s) cannot be decoded whole (\(stats.cutATTPDUs.values.reduce(0, +)) with their opcode visible)"
                : "; PDUs in them cannot be decoded whole"
            fail(.captureTruncated, severity: .warning, at: end, record: nil, slot: nil, connection: nil,
                 "\(stats.truncatedRecords) record(s) were cut short by the capturing tool" + hidden)
        }
    }

    /// Groups addresses into devices (by the union-find roots), in order of first sight.
    mutating func buildDevices() -> [Device] {
        var groups: [Int: [Int]] = [:]
        for slot in registry.states.indices { groups[registry.root(slot), default: []].append(slot) }
        var connectionsBySlotRoot: [Int: [ConnectionID]] = [:]
        for slot in registry.states.indices {
            connectionsBySlotRoot[registry.root(slot), default: []] += registry.states[slot].connectionIDs
        }
        return groups.keys.sorted().map { root in
            let slots = groups[root] ?? []
            var device = Device(id: registry.deviceID(of: root), addresses: [], identity: nil, names: [], companyIDs: [],
                                serviceUUIDs: [], txPower: nil, advertisements: 0, firstSeenUs: nil, lastSeenUs: nil,
                                connectionIDs: [], gatt: gatt[root].sorted)
            for slot in slots {
                let state = registry.states[slot]
                device.addresses.append(DeviceAddress(address: state.address, type: AddressKind(state.type, state.address),
                                                      advertisements: state.advertisements,
                                                      scanResponses: state.scanResponses, rssi: state.rssi.statistics,
                                                      firstSeenUs: state.firstSeenUs, lastSeenUs: state.lastSeenUs,
                                                      bursts: state.bursts.bursts))
                if device.identity == nil { device.identity = state.identity }
                for name in state.names { DeviceRegistry.append(name, to: &device.names) }
                for id in state.companyIDs { DeviceRegistry.append(id, to: &device.companyIDs) }
                for uuid in state.serviceUUIDs { DeviceRegistry.append(uuid, to: &device.serviceUUIDs) }
                device.txPower = device.txPower ?? state.txPower
                device.advertisements += state.advertisements + state.scanResponses
                if let first = state.firstSeenUs { device.firstSeenUs = min(device.firstSeenUs ?? first, first) }
                if let last = state.lastSeenUs { device.lastSeenUs = max(device.lastSeenUs ?? last, last) }
            }
            let ids = connectionsBySlotRoot[root] ?? []
            device.connectionIDs = ids.sorted()
            return device
        }
    }

    /// `148 s`, `2.5 s`, `14 ms`.
    static func seconds(_ us: Int64) -> String {
        if us >= 10_000_000 { return "\(us / 1_000_000) s" }
        if us >= 1_000_000 { return "\(Double(us / 100_000) / 10) s" }
        return "\(us / 1000) ms"
    }
}
