import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEPacketDecoding

/// ATT transactions closed, counted and listed; timeouts; the end of a connection
/// (Core v5.4 Vol 3 Part F §3.3).
extension SessionAnalyzer {
    /// Closes the transaction of a request: counts it, lists it per the options, reports a
    /// failure when it failed. Changed in place in its request (taken out of it, the
    /// transaction would be copied).
    mutating func resolve(_ request: inout PendingRequest, in conn: LiveConnection, outcome: ATTTransaction.Outcome,
                          responseUs: Int64?, record responseRecord: Int?, response: ATTOpcode?, now: Int64, why: String?,
                          unseenEnd: Bool = false) {
        request.transaction.outcome = outcome
        request.transaction.responseUs = responseUs
        request.transaction.responseRecord = responseRecord
        request.transaction.responseOpcode = response
        switch outcome {
        case .error:
            let code = request.transaction.errorCode ?? ATTErrorCode(rawValue: 0)
            describeAttribute(of: &request.transaction, in: conn)
            if !ATTErrorCode.isNormalEndOfDiscovery(errorCode: code, requestOpcode: request.transaction.opcode) {
                let listed = failures.count
                fail(.attError, at: now, record: responseRecord, slot: conn.slot, connection: conn.connection.id,
                     "\(Self.what(request.transaction)) failed: \(code.name) (\(Hex.code(code.rawValue)))",
                     details: Self.details(request.transaction) + [.int("errorCode", code.rawValue), .string("errorName", code.name)])
                // Insufficient Authentication, Encryption Key Size, Encryption: the error says what followed.
                if [0x05, 0x0C, 0x0F].contains(code.rawValue), failures.count > listed {
                    awaitSecurity(failureIndex: listed, in: conn)
                }
            }
        case .timeout:
            describeAttribute(of: &request.transaction, in: conn)
            // Named by the request's record: the request is what failed; the time is when that showed.
            fail(.attTimeout, at: now, record: request.transaction.requestRecord, slot: conn.slot, connection: conn.connection.id,
                 "\(Self.what(request.transaction)) unanswered after \(options.transactionTimeoutUs / 1_000_000) s with the link up"
                    + airCaveat(conn, since: request),
                 details: Self.details(request.transaction))
        case .noResponse:
            describeAttribute(of: &request.transaction, in: conn)
            request.transaction.endNotSeen = unseenEnd
            // Unanswered because the capture ended, or the link's end was not seen: nothing is
            // known to have failed (the answer may have come). Named by the request's record.
            fail(.attNoResponse, severity: unseenEnd ? .warning : .failure, at: now, record: request.transaction.requestRecord,
                 slot: conn.slot,
                 connection: conn.connection.id,
                 "\(Self.what(request.transaction)) "
                    // Encrypted traffic from the answering side may hold the answer: not known unanswered.
                    + (Self.encryptedAnswers(to: request.transaction.direction, in: conn) > request.encryptedBefore
                        ? "got no readable answer: " : "never answered: ")
                    + (why ?? "the link went down first") + airCaveat(conn, since: request),
                 details: Self.details(request.transaction))
        case .malformed:
            describeAttribute(of: &request.transaction, in: conn)
            let answer = request.transaction.responseOpcode.map { "its answer, a \($0.name)," } ?? "its answer"
            let problem = why ?? "its parameters do not decode"
            if request.transaction.answerHasExtraBytes {
                fail(.attMalformedAnswer, severity: .warning, at: now, record: responseRecord, slot: conn.slot,
                     connection: conn.connection.id,
                     "\(Self.what(request.transaction)): \(answer) carries bytes its PDU does not define: \(problem) "
                        + "(a strict client discards it, a lenient one takes it)",
                     details: Self.details(request.transaction))
            } else {
                fail(.attMalformedAnswer, at: now, record: responseRecord, slot: conn.slot, connection: conn.connection.id,
                     "\(Self.what(request.transaction)) failed: \(answer) is malformed: \(problem)",
                     details: Self.details(request.transaction))
            }
        case .ok, .noResponseExpected:
            // The description costs a lookup and a string: made only for a failure or a listing of all.
            if options.transactions == .all { describeAttribute(of: &request.transaction, in: conn) }
        }
        store(&request.transaction, request: request.pdu, in: conn)
    }

    mutating func describeAttribute(of transaction: inout ATTTransaction, in conn: LiveConnection) {
        if let handle = transaction.handle {
            transaction.attribute = attribute(handle, of: transaction.opcode, on: transaction.server, in: conn)
        }
    }

    /// `Write Request to Battery Level (2A19)`.
    static func what(_ transaction: ATTTransaction) -> String {
        transaction.opcode.name + (transaction.attribute.map { preposition(transaction.opcode) + $0 } ?? "")
    }

    /// A sniffer that lost packets may have missed the answer: say so where it lost some on the
    /// request's link while the request waited, the only ones that can hold its answer.
    func airCaveat(_ conn: LiveConnection, since request: PendingRequest) -> String {
        guard case .air = conn.connection.link else { return "" }
        let lost = conn.badCRCPackets - request.badCRCBefore
        let encrypted = Self.encryptedAnswers(to: request.transaction.direction, in: conn) - request.encryptedBefore
        var why: [String] = []
        if lost > 0 { why.append("the sniffer lost \(lost) packet(s) on this link to bad CRCs while it waited") }
        if encrypted > 0 {
            let side = request.transaction.direction == .centralToPeripheral ? "peripheral" : "central"
            why.append("the \(side) sent \(encrypted) encrypted PDU(s) after it, which cannot be read without the link's key")
        }
        guard !why.isEmpty else { return "" }
        return " (" + why.joined(separator: "; ") + "; the answer may be among them)"
    }

    /// Over the air, the encrypted PDUs the side answering a request sent in `direction` has sent so far.
    static func encryptedAnswers(to direction: Direction, in conn: LiveConnection) -> Int {
        switch direction {
        case .centralToPeripheral: conn.encryptedFromPeripheral
        case .peripheralToCentral: conn.encryptedFromCentral
        default: 0
        }
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

    /// Counts a resolved transaction and lists it where the listing wants it. `request` is the
    /// request PDU: its value, shared with its record's bytes, is copied into the transaction only
    /// when it is listed (a listed transaction outlives its record). The transaction is lent
    /// (`inout`) and copied only into a listing: handed over, each would be copied, with a
    /// reference count per transaction.
    mutating func store(_ transaction: inout ATTTransaction, request: borrowing ATTPDU, in conn: LiveConnection) {
        let key = TransactionTotals.Key(opcode: transaction.opcode.rawValue, handle: transaction.handle, server: transaction.server)
        let normalEnd = transaction.outcome == .error && transaction.errorCode.map {
            ATTErrorCode.isNormalEndOfDiscovery(errorCode: $0, requestOpcode: transaction.opcode)
        } ?? false
        // What the totals take, read before: captured, the transaction would be copied for the call.
        let outcome = transaction.outcome, latencyUs = transaction.latencyUs, extraBytes = transaction.answerHasExtraBytes
        conn.updateTotals(key) {
            Self.count(outcome: outcome, latencyUs: latencyUs, normalEnd: normalEnd, answerHasExtraBytes: extraBytes, in: &$0)
        }
        let failed = !normalEnd && transaction.outcome != .ok && transaction.outcome != .noResponseExpected
        list(&transaction, request: request, in: conn, failed: failed)
    }

    /// Lists a transaction where the listing wants it, within the caps.
    mutating func list(_ transaction: inout ATTTransaction, request: borrowing ATTPDU, in conn: LiveConnection, failed: Bool,
                       asNotification: Bool = false) {
        guard options.transactions == .all || options.transactions == .failed && failed,
              conn.connection.transactions.count + conn.connection.notifications.count < Self.transactionsListedPerConnection
        else { return }
        let room = options.transactionsListedPerCapture + (failed ? Self.failuresListedPerKind : 0)
        guard transactionsListed < room else {
            transactionListingCapped = true
            return
        }
        transactionsListed += 1
        if transaction.value == nil { transaction.value = request.value?.array }
        if asNotification {
            conn.connection.notifications.append(transaction)
        } else {
            conn.connection.transactions.append(transaction)
        }
    }

    static func count(outcome: ATTTransaction.Outcome, latencyUs: Int64?, normalEnd: Bool, answerHasExtraBytes: Bool,
                      in aggregate: inout TransactionTotals.Aggregate) {
        aggregate.count += 1
        if outcome == .error {
            if normalEnd { aggregate.discoveryEnds += 1 } else { aggregate.errors += 1 }
        }
        if outcome == .malformed, !answerHasExtraBytes { aggregate.errors += 1 }
        if outcome == .timeout || outcome == .noResponse { aggregate.unanswered += 1 }
        if let latencyUs { aggregate.latencies.add(latencyUs) }
    }

    /// Every flow of a bearer: each direction's requests, then its indications.
    static let flows: [(Direction, Bool)] = PendingRequests.directions.flatMap { [($0, false), ($0, true)] }

    /// Requests older than the transaction timeout while the link is up (Vol 3 Part F §3.3.3).
    mutating func expireTransactions(now: Int64, events: inout [SessionEvent]) {
        var next = Int64.max
        for (link, conn) in live.all {
            for bearer in conn.pendingBearers {
                for (direction, indication) in Self.flows {
                    guard var pending = conn.takePending(direction, bearer: bearer, indication: indication) else { continue }
                    let deadline = pending.transaction.requestUs + options.transactionTimeoutUs
                    // Over the air, a link the sniffer has not seen alive at the deadline may be gone:
                    // its end decides (no-response), not the ATT timer.
                    if case .air = link, conn.connection.lastActivityUs + Self.supervisionTimeoutUs(conn) < deadline {
                        conn.setPending(pending, direction, bearer: bearer, indication: indication)
                        continue
                    }
                    if deadline <= now {
                        resolve(&pending, in: conn, outcome: .timeout, responseUs: nil, record: nil, response: nil,
                                now: deadline, why: nil)
                    } else {
                        conn.setPending(pending, direction, bearer: bearer, indication: indication)
                        next = min(next, deadline)
                    }
                }
            }
        }
        nextDeadlineUs = next
    }

    /// The end of a connection: its pending requests fail, an abnormal reason is a lost link
    /// (report contract: anything but 0x13, 0x15, 0x16).
    mutating func end(_ link: LinkID, reason: HCIStatus?, initiator: DisconnectInitiator?, timeUs: Int64, record: Int?,
                      inferred: String? = nil, events: inout [SessionEvent]) {
        guard let conn = live.remove(link) else { return }
        conn.connection.endUs = timeUs
        conn.connection.endRecord = record
        conn.connection.disconnectReason = reason
        conn.connection.endInferred = inferred
        conn.connection.initiator = initiator ?? Self.initiator(reason: reason, hostAsked: conn.disconnectRequested)
        // An end the capture did not show (a sniffer that lost the link) proves no failure: a warning.
        for var pending in conn.allPending {
            resolve(&pending, in: conn, outcome: .noResponse, responseUs: nil, record: nil, response: nil,
                    now: timeUs, why: "the link went down first (\(reason.map { "\($0.name)" } ?? "its end was not captured"))",
                    unseenEnd: reason == nil)
        }
        conn.removeAllPending()
        if let reason, ![0x13, 0x15, 0x16].contains(reason.rawValue) {
            fail(.linkLost, at: timeUs, record: record, slot: conn.slot, connection: conn.connection.id,
                 "Link to \(label(slot: conn.slot)) lost: \(reason.name) (\(Hex.code(reason.rawValue)))"
                    + (inferred.map { " (\($0))" } ?? ""),
                 details: [.int("reason", reason.rawValue), .string("reasonName", reason.name)])
        }
        keep(conn)
        events.append(.connectionEnded(connection: conn.id, timeUs: timeUs))
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
