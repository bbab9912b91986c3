import ATT
import BLEBase
import CaptureFormats
import HCI
import L2CAP
import PacketDecoding

/// ATT transactions, MTU, GATT discovery, subscriptions and SMP identities per connection
/// (Core v5.4 Vol 3 Part F §3.3–3.4, Part G §4, Part H §3.6.4).
extension SessionAnalyzer {
    /// Long values joined from Read Blob / Prepare Write are capped (an attribute value is at
    /// most 512 bytes, Vol 3 Part F §3.2.9).
    static let longValueCap = 512

    mutating func handleL2CAP(_ pdu: L2CAPPDU, record: CaptureRecord, events: inout [SessionEvent]) {
        switch pdu.content {
        case .att(let att):
            stats.attPDUs[att.opcode.rawValue, default: 0] += 1
            handleATT(att, link: pdu.link, direction: pdu.direction, record: record, frame: pdu.frame, events: &events)
        case .malformedATT(let opcode, _):
            if let opcode { stats.attPDUs[opcode.rawValue, default: 0] += 1 }
        case .smp(let smp):
            if case .identityAddressInformation(let type, let address) = smp.parameters,
               let slot = live[pdu.link]?.slot {
                // The peer's identity address: the RPAs it used and this address are one device.
                let identitySlot = registry.slot(address, type: type)
                registry.merge(slot, identitySlot)
                registry.assign(DeviceIdentity(value: address.description, source: "smp-identity-address"), to: slot)
            }
        default:
            break
        }
    }

    mutating func handleATT(_ att: ATTPDU, link: LinkID, direction: Direction, record: CaptureRecord, frame: L2CAPFrame,
                            events: inout [SessionEvent]) {
        // Taken out of `live` while it changes, so that its collections are not copied on write.
        guard var conn = live.removeValue(forKey: link) else { return }
        let now = record.timestampUs
        conn.connection.lastActivityUs = now
        let hostToDevice = direction == .sent || direction == .centralToPeripheral
        let opcode = att.opcode

        switch opcode.kind {
        case .request, .indication:
            if let earlier = conn.pending.removeValue(forKey: direction) {
                // A second request before the first was answered breaks the protocol (§3.3.2).
                resolve(earlier, in: &conn, outcome: .noResponse, responseUs: nil, record: nil, response: nil, now: now,
                        why: "a new request was sent before it was answered")
            }
            // Its attribute is described when it resolves (discovery may name the handle meanwhile).
            let transaction = ATTTransaction(opcode: opcode, handle: att.handle, attribute: nil, direction: direction,
                                             requestUs: now, requestRecord: record.index, responseUs: nil,
                                             responseRecord: nil, responseOpcode: nil, outcome: .noResponse,
                                             errorCode: nil, value: att.value)
            if Self.discoveryOpcodes.contains(opcode) {
                conn.connection.discovery = (conn.connection.discovery?.startUs ?? now, now)
            }
            if case .readRequest(let handle) = att.parameters { conn.longValues[handle] = nil }
            conn.pending[direction] = PendingRequest(pdu: att, transaction: transaction)
            nextDeadlineUs = min(nextDeadlineUs, now + options.transactionTimeoutUs)
        case .response, .confirmation:
            if opcode == .writeResponse {
                events.append(.writeResponse(connectionID: conn.connection.id, timeUs: now))
            }
            let requestDirection = Self.opposite(direction)
            if let pending = conn.pending.removeValue(forKey: requestDirection) {
                answer(pending, with: att, in: &conn, record: record)
            }
        case .command, .notification:
            if let handle = att.handle {
                conn.connection.valueCounts[ValueCountKey(opcode: opcode.rawValue, handle: handle), default: 0] += 1
            }
            if opcode == .writeCommand || opcode == .signedWriteCommand {
                var transaction = ATTTransaction(opcode: opcode, handle: att.handle, attribute: nil, direction: direction,
                                                 requestUs: now, requestRecord: record.index, responseUs: nil,
                                                 responseRecord: nil, responseOpcode: nil, outcome: .noResponseExpected,
                                                 errorCode: nil, value: att.value)
                // Described only when listed: every listing shows it, nothing else does.
                if options.transactions == .all { transaction.attribute = att.handle.map { describe($0, slot: conn.slot) } }
                store(transaction, in: &conn)
            }
        case nil:
            break
        }

        if let handle = att.handle, let value = att.value,
           [.writeRequest, .writeCommand, .handleValueNotification, .handleValueIndication].contains(opcode) {
            events.append(.attValue(ATTValueEvent(
                connectionID: conn.connection.id, deviceID: conn.slot.map { registry.deviceID(of: $0) },
                hostToDevice: hostToDevice, opcode: opcode, handle: handle,
                uuid: conn.slot.flatMap { gatt[registry.root($0)]?.uuid(of: handle) }, value: value,
                timeUs: now, record: record.index, firstFragmentRecord: frame.firstRecordIndex,
                firstFragmentUs: frame.firstTimestampUs, mtu: conn.connection.mtu,
                profile: conn.slot.flatMap { registry.profile(of: $0) })))
        }
        live[link] = conn
    }

    /// The requests of the GATT discovery procedures (Core v5.4 Vol 3 Part G §4.4–4.7).
    static let discoveryOpcodes: Set<ATTOpcode> = [.readByGroupTypeRequest, .findByTypeValueRequest, .readByTypeRequest,
                                                    .findInformationRequest]

    static func opposite(_ direction: Direction) -> Direction {
        switch direction {
        case .sent: return .received
        case .received: return .sent
        case .centralToPeripheral: return .peripheralToCentral
        case .peripheralToCentral: return .centralToPeripheral
        case .unknown: return .unknown
        }
    }

    /// Handles a response: the transaction's outcome, and what it teaches (MTU, GATT, CCCD).
    mutating func answer(_ pending: PendingRequest, with response: ATTPDU, in conn: inout LiveConnection,
                         record: CaptureRecord) {
        let request = pending.pdu
        var resolvedValue: [UInt8]?
        switch response.parameters {
        case .errorResponse(let error):
            var resolved = pending
            resolved.transaction.errorCode = error.errorCode
            resolve(resolved, in: &conn, outcome: .error, responseUs: record.timestampUs, record: record.index,
                    response: response.opcode, now: record.timestampUs, why: nil)
            return
        case .exchangeMTUResponse(let server):
            if case .exchangeMTURequest(let client) = request.parameters {
                // Vol 3 Part F §3.4.2.2: both use the smaller of the two, never below 23.
                conn.connection.mtu = max(23, Int(min(client, server)))
            }
        case .readBlobResponse(let part):
            if let handle = request.handle {
                var joined = conn.longValues[handle] ?? []
                if joined.count + part.count <= Self.longValueCap { joined += part }
                conn.longValues[handle] = joined
            }
        case .prepareWriteResponse(let prepared):
            var joined = conn.longValues[prepared.handle] ?? []
            if joined.count + prepared.value.count <= Self.longValueCap { joined += prepared.value }
            conn.longValues[prepared.handle] = joined
        case .executeWriteResponse:
            // The prepared parts become one logical value (Vol 3 Part F §3.4.6.3).
            if let (_, joined) = conn.longValues.first { resolvedValue = joined }
            conn.longValues.removeAll()
        case .writeResponse:
            if case .writeRequest(let write) = request.parameters { subscription(write, in: &conn, timeUs: record.timestampUs) }
        default:
            if let slot = conn.slot {
                gatt[registry.root(slot), default: GATTDatabase()].learn(request: request, response: response)
            }
        }
        var resolved = pending
        if let resolvedValue { resolved.transaction.value = resolvedValue }
        if case .readResponse(let value) = response.parameters { resolved.transaction.value = Array(value.prefix(64)) }
        if case .readBlobRequest(let handle, _) = request.parameters { resolved.transaction.value = conn.longValues[handle] }
        resolve(resolved, in: &conn, outcome: .ok, responseUs: record.timestampUs, record: record.index,
                response: response.opcode, now: record.timestampUs, why: nil)
    }

    /// A Write Request to a Client Characteristic Configuration descriptor (Vol 3 Part G §3.3.3.3).
    mutating func subscription(_ write: ATTHandleValue, in conn: inout LiveConnection, timeUs: Int64) {
        guard let slot = conn.slot, let database = gatt[registry.root(slot)],
              database.uuid(of: write.handle) == BluetoothUUID(uint16: 0x2902), let first = write.value.first else { return }
        let owner = database.characteristic(containing: write.handle).map { GATTDatabase.name($0.uuid) }
            ?? "handle \(Hex.code(write.handle, width: 4))"
        conn.connection.subscriptions.append(Subscription(timeUs: timeUs, cccdHandle: write.handle, characteristic: owner,
                                                          notifications: first & 1 != 0, indications: first & 2 != 0))
    }

    /// Closes a transaction: counts it, lists it per the options, reports a failure when it failed.
    mutating func resolve(_ pending: PendingRequest, in conn: inout LiveConnection, outcome: ATTTransaction.Outcome,
                          responseUs: Int64?, record responseRecord: Int?, response: ATTOpcode?, now: Int64, why: String?) {
        var transaction = pending.transaction
        transaction.outcome = outcome
        transaction.responseUs = responseUs
        transaction.responseRecord = responseRecord
        transaction.responseOpcode = response
        // The description costs a lookup and a string: made only for a failure or a listing of all.
        let described = outcome == .error || outcome == .timeout || outcome == .noResponse || options.transactions == .all
        if described, let handle = transaction.handle { transaction.attribute = describe(handle, slot: conn.slot) }
        let what = transaction.opcode.name + (transaction.attribute.map { " to \($0)" } ?? "")
        let connectionID = conn.connection.id
        switch outcome {
        case .error:
            let code = transaction.errorCode ?? ATTErrorCode(rawValue: 0)
            if !ATTErrorCode.isNormalEndOfDiscovery(errorCode: code, requestOpcode: transaction.opcode) {
                fail(.attError, at: now, record: responseRecord, slot: conn.slot, connection: connectionID,
                     "\(what) failed: \(code.name) (\(Hex.code(code.rawValue)))",
                     details: Self.details(transaction) + [.int("errorCode", code.rawValue), .string("errorName", code.name)])
            }
        case .timeout:
            fail(.attTimeout, at: now, record: nil, slot: conn.slot, connection: connectionID,
                 "\(what) unanswered after \(options.transactionTimeoutUs / 1_000_000) s with the link up" + airCaveat(conn),
                 details: Self.details(transaction))
        case .noResponse:
            fail(.attNoResponse, at: now, record: nil, slot: conn.slot, connection: connectionID,
                 "\(what) never answered: \(why ?? "the link went down first")" + airCaveat(conn),
                 details: Self.details(transaction))
        case .ok, .noResponseExpected:
            break
        }
        store(transaction, in: &conn)
    }

    /// A sniffer that lost packets may have missed the answer: say so where it did lose some.
    func airCaveat(_ conn: LiveConnection) -> String {
        guard case .air = conn.connection.link, stats.badCRCPackets > 0 else { return "" }
        return " (the sniffer lost \(stats.badCRCPackets) packet(s) to bad CRCs; the answer may be among them)"
    }

    static func supervisionTimeoutUs(_ conn: LiveConnection) -> Int64 {
        Int64(max(conn.connection.parameters.last?.supervisionTimeoutMs ?? 0, 100)) * 1000
    }

    static func details(_ transaction: ATTTransaction) -> [Field] {
        var fields: [Field] = [.int("opcode", transaction.opcode.rawValue), .string("opcodeName", transaction.opcode.name),
                               .int("requestUs", transaction.requestUs)]
        if let handle = transaction.handle { fields.append(.int("handle", handle)) }
        return fields
    }

    /// Transactions listed per connection; the totals per characteristic stay complete.
    static let transactionsListedPerConnection = 10_000

    mutating func store(_ transaction: ATTTransaction, in conn: inout LiveConnection) {
        let key = TransactionTotals.Key(opcode: transaction.opcode.rawValue, handle: transaction.handle)
        let normalEnd = transaction.outcome == .error && transaction.errorCode.map {
            ATTErrorCode.isNormalEndOfDiscovery(errorCode: $0, requestOpcode: transaction.opcode)
        } ?? false
        // Counted in place: a copy of the aggregate would copy its latency samples on write.
        Self.count(transaction, normalEnd: normalEnd,
                   in: &conn.connection.transactionTotals.byKey[key, default: TransactionTotals.Aggregate()])
        let failed = !normalEnd && transaction.outcome != .ok && transaction.outcome != .noResponseExpected
        guard conn.connection.transactions.count < Self.transactionsListedPerConnection else { return }
        switch options.transactions {
        case .all: conn.connection.transactions.append(transaction)
        case .failed where failed: conn.connection.transactions.append(transaction)
        default: break
        }
    }

    static func count(_ transaction: ATTTransaction, normalEnd: Bool, in aggregate: inout TransactionTotals.Aggregate) {
        aggregate.count += 1
        if transaction.outcome == .error {
            if normalEnd { aggregate.discoveryEnds += 1 } else { aggregate.errors += 1 }
        }
        if transaction.outcome == .timeout || transaction.outcome == .noResponse { aggregate.unanswered += 1 }
        if let latency = transaction.latencyUs { aggregate.latencies.add(latency) }
    }

    /// Requests older than the transaction timeout while the link is up (Vol 3 Part F §3.3.3).
    mutating func expireTransactions(now: Int64, events: inout [SessionEvent]) {
        var next = Int64.max
        for link in Array(live.keys) {
            guard var conn = live.removeValue(forKey: link) else { continue }
            for (direction, pending) in conn.pending {
                let deadline = pending.transaction.requestUs + options.transactionTimeoutUs
                // Over the air, a link the sniffer has not seen alive at the deadline may be gone:
                // its end decides (no-response), not the ATT timer.
                if case .air = link, conn.connection.lastActivityUs + Self.supervisionTimeoutUs(conn) < deadline {
                    continue
                }
                if deadline <= now {
                    conn.pending.removeValue(forKey: direction)
                    resolve(pending, in: &conn, outcome: .timeout, responseUs: nil, record: nil, response: nil,
                            now: deadline, why: nil)
                } else {
                    next = min(next, deadline)
                }
            }
            live[link] = conn
        }
        nextDeadlineUs = next
    }

    /// The primary services discovered on the device of a connection (for profiles that match
    /// by GATT service).
    public mutating func gattServices(ofConnection id: String) -> [BluetoothUUID] {
        guard let slot = connectionSlots[id], let database = gatt[registry.root(slot)] else { return [] }
        return database.services
    }

    /// `Battery Level (2A19)` from the device's GATT database, or the handle.
    mutating func describe(_ handle: UInt16, slot: Int?) -> String {
        guard let slot, let database = gatt[registry.root(slot)] else { return "handle \(Hex.code(handle, width: 4))" }
        return database.describe(handle)
    }

    /// The end of a connection: its pending requests fail, an abnormal reason is a lost link
    /// (report contract: anything but 0x13, 0x15, 0x16).
    mutating func end(_ link: LinkID, reason: HCIStatus?, initiator: DisconnectInitiator?, timeUs: Int64, record: Int?,
                      events: inout [SessionEvent]) {
        guard var conn = live.removeValue(forKey: link) else { return }
        conn.connection.endUs = timeUs
        conn.connection.endRecord = record
        conn.connection.disconnectReason = reason
        conn.connection.initiator = initiator ?? Self.initiator(reason: reason, hostAsked: conn.disconnectRequested)
        for (_, pending) in conn.pending.sorted(by: { $0.value.transaction.requestUs < $1.value.transaction.requestUs }) {
            resolve(pending, in: &conn, outcome: .noResponse, responseUs: nil, record: nil, response: nil, now: timeUs,
                    why: "the link went down first (\(reason.map { "\($0.name)" } ?? "its end was not captured"))")
        }
        conn.pending.removeAll()
        if let reason, ![0x13, 0x15, 0x16].contains(reason.rawValue) {
            fail(.linkLost, at: timeUs, record: record, slot: conn.slot, connection: conn.connection.id,
                 "Link to \(label(slot: conn.slot)) lost: \(reason.name) (\(Hex.code(reason.rawValue)))",
                 details: [.int("reason", reason.rawValue), .string("reasonName", reason.name)])
        }
        finished.append(conn.connection)
        events.append(.connectionEnded(connectionID: conn.connection.id, timeUs: timeUs))
    }

    static func initiator(reason: HCIStatus?, hostAsked: Bool) -> DisconnectInitiator {
        if hostAsked { return .localHost }
        switch reason?.rawValue {
        case 0x13, 0x14, 0x15: return .remote
        case 0x16: return .localHost
        case nil: return .unknown
        default: return .controller
        }
    }
}
