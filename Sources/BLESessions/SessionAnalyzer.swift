import BLEBase
import BLEHCI
import BLEPacketDecoding

/// Turns decoded packets into devices, connections, GATT databases, ATT transactions, HCI
/// command outcomes and failures, in one streaming pass. State is what is live (open
/// connections, pending requests and commands); finished connections are kept for the report.
public struct SessionAnalyzer {
    var options: SessionOptions
    var stats = CaptureStatistics()
    var registry = DeviceRegistry()
    var gatt = GATTDatabases()
    var live = LiveLinks()
    var finished: [Connection] = []
    var attempts: [ConnectionAttempt] = []
    var pendingCreates: [PendingCreate] = []
    var pendingCommands: [UInt16: [PendingCommand]] = [:]
    var commandTotals: [UInt16: CommandTotals] = [:]
    var failures: [Failure] = []
    /// Findings below `failure` (`notices[]`), a run of the same one on one link as one entry.
    var notices: [Failure] = []
    var noticeEntries: [NoticeKey: Int] = [:]
    var connectionCount = 0
    var nextDeadlineUs: Int64 = .max
    var classified: Set<Int> = []
    /// ATT PDUs per opcode, counted here and copied into `stats.attPDUs` by `finish`.
    var attOpcodeCounts = [Int](repeating: 0, count: 256)
    /// Transactions listed so far in the whole capture, and whether one was left out for the cap.
    var transactionsListed = 0
    var transactionListingCapped = false
    /// Live SCO/eSCO and CIS handles, whose Disconnection Complete ends no connection.
    var synchronousHandles: Set<UInt16> = []
    /// BR/EDR connections the host created or accepted, awaiting their Connection Complete.
    var classicRequests: [ClassicConnectionRequest] = []

    public init(options: SessionOptions = SessionOptions()) { self.options = options }

    /// Feeds one decoded packet and appends what the layer above may want to `events` (a buffer
    /// the caller can reuse from packet to packet). The packet is only read: it is `inout` so
    /// that it is lent in place (passed by value, the caller would copy the whole packet aside
    /// first).
    public mutating func process(lent packet: inout DecodedPacket, into events: inout [SessionEvent]) {
        let now = packet.record.timestampUs
        stats.records += 1
        // Times count from the earliest record, wherever it lies; one earlier than a record
        // before it is counted (a capture tool's clock step or interleaved writers).
        if let last = stats.lastTimeUs, now < last {
            stats.outOfOrderRecords += 1
            if stats.firstOutOfOrderRecord == nil { stats.firstOutOfOrderRecord = packet.record.index }
            stats.largestStepBackUs = max(stats.largestStepBackUs, last - now)
        }
        stats.firstTimeUs = min(stats.firstTimeUs ?? now, now)
        stats.lastTimeUs = max(stats.lastTimeUs ?? now, now)
        if packet.record.isTruncated { stats.truncatedRecords += 1 }
        // A radio packet that failed its CRC is counted as such (`undecodableRadioPackets`): what
        // its damaged bytes would break is the damage, not a fault of the sender.
        if !packet.issues.isEmpty, !(packet.air?.flags.contains(.badCRC) ?? false), !(packet.air?.flags.contains(.noise) ?? false) {
            for issue in packet.issues { count(issue) }
        }
        if now >= nextDeadlineUs { expireTransactions(now: now, events: &events) }

        switch packet.hci {
        case .command(let command):
            stats.hciCommands += 1
            handle(command, record: packet.record)
        case .event(let event):
            stats.hciEvents += 1
            handle(event, record: packet.record, joinedAdvertising: packet.joinedAdvertising, events: &events)
        case .acl(let acl):
            stats.aclPackets += 1
            if !live.contains(.hci(adapter: packet.record.adapter, handle: acl.connectionHandle)) {
                linkWithoutCompletion(handle: acl.connectionHandle, record: packet.record)
            }
        case .sco:
            stats.scoPackets += 1
        case .iso:
            stats.isoPackets += 1
        case .absent:
            switch packet.record.kind {
            case .hciCommand, .hciEvent, .aclData, .scoData, .isoData: stats.undecodableRecords += 1
            case .linkLayer: break
            case .note, .control, .unknown: stats.otherRecords += 1
            }
        }
        if packet.isAir, let air = packet.air {
            stats.airPackets += 1
            handleAir(air, packet: packet, events: &events)
        }
        // Lent to the handler in place (`inout`): the subscript would copy each PDU out, and the
        // first, passed as an argument, would be copied too.
        if packet.l2cap.count > 0 { handleL2CAP(&packet.l2cap.head, record: packet.record, events: &events) }
        for var pdu in packet.l2cap.rest { handleL2CAP(&pdu, record: packet.record, events: &events) }
    }

    // MARK: Helpers shared by the handlers

    mutating func count(_ issue: PacketIssue) {
        stats.issues[issue.kind, default: 0] += 1
        if issue.kind == .cutByCapture && issue.layer == .l2cap {
            stats.hiddenATTPDUs += 1
            if let opcode = issue.hiddenATTOpcode { stats.cutATTPDUs[opcode, default: 0] += 1 }
        }
    }

    mutating func newConnectionID() -> ConnectionID {
        connectionCount += 1
        return ConnectionID(number: connectionCount)
    }

    /// Keeps an ended connection for the report with what the report shows of its latencies
    /// (frozen in place by `LiveConnection.ended`).
    mutating func keep(_ conn: LiveConnection) {
        closeSecurity(conn)
        finished.append(conn.ended())
    }

    /// Failures listed per kind; past this they are only counted (`stats.failuresByKind`), so a
    /// capture with a million errors still gives a report a person can open.
    public static let failuresListedPerKind = 1000

    /// Records a finding: a failure, or with a lower severity a notice, where a repetition of
    /// one already listed for the same link (same kind and summary) adds to its `count`.
    mutating func fail(_ kind: FailureKind, severity: FindingSeverity = .failure, at timeUs: Int64, record: Int?, slot: Int?,
                       connection: ConnectionID?, _ summary: String, details: [Field] = []) {
        guard severity == .failure else {
            stats.noticesByKind[kind, default: 0] += 1
            let device = slot.map { registry.deviceID(of: $0) }
            let key = NoticeKey(kind: kind, link: connection?.description ?? device?.description ?? "", summary: summary)
            if let index = noticeEntries[key] {
                notices[index].count += 1
                return
            }
            guard notices.count < Self.failuresListedPerKind * 16 else { return }
            noticeEntries[key] = notices.count
            notices.append(Failure(kind: kind, severity: severity, timeUs: timeUs, record: record, deviceID: device,
                                   connectionID: connection, summary: summary, details: details))
            return
        }
        stats.failuresByKind[kind, default: 0] += 1
        guard stats.failuresByKind[kind, default: 0] <= Self.failuresListedPerKind else { return }
        let device = slot.map { registry.deviceID(of: $0) }
        failures.append(Failure(kind: kind, timeUs: timeUs, record: record, deviceID: device, connectionID: connection,
                                summary: summary, details: details))
    }

    /// The device id of a connection's peer, as the devices are merged so far.
    mutating func deviceID(of conn: LiveConnection) -> DeviceID? {
        conn.slot.map { registry.deviceID(of: $0) }
    }

    /// `LOCK-A101 (5C:3A:91:0E:C7:21)`: a device as a person recognises it.
    mutating func label(slot: Int?) -> String {
        guard let slot else { return "unknown device" }
        let state = registry.states[slot]
        if let name = state.names.first { return "\(name) (\(state.address))" }
        let root = registry.root(slot)
        if let name = registry.states[root].names.first { return "\(name) (\(state.address))" }
        return state.address.description
    }
}

/// What makes two notices one entry with a count: kind, link (connection, else device) and text.
struct NoticeKey: Hashable {
    var kind: FailureKind
    var link: String
    var summary: String
}

struct PendingCreate {
    var peer: BluetoothAddress?
    var peerType: AddressType?
    var createUs: Int64
    var record: Int
    var accepted = false
    var cancelRequested = false
}

struct PendingCommand {
    var opcode: HCIOpcode
    var timeUs: Int64
    var record: Int
    /// The link a command is about, for a command with a connection handle.
    var handle: UInt16?
    /// Sent while the same command was still pending.
    var repeated = false
}
