import BLEATT
import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLEPacketDecoding

/// ATT requests and answers, MTU, GATT discovery, subscriptions and SMP identities per connection
/// (Core v5.4 Vol 3 Part F §3.3–3.4, Part G §4, Part H §3.6.4).
extension SessionAnalyzer {
    /// Long values joined from Read Blob / Prepare Write are capped (an attribute value is at
    /// most 512 bytes, Vol 3 Part F §3.2.9).
    static let longValueCap = 512

    /// One L2CAP PDU of a record. `inout` so that it is read where the packet holds it; it is not changed.
    mutating func handleL2CAP(_ pdu: inout L2CAPPDU, record: CaptureRecord, events: inout [SessionEvent]) {
        switch pdu.content {
        case .att(let att):
            attOpcodeCounts[Int(att.opcode.rawValue)] += 1
            handleATT(att, link: pdu.link, direction: pdu.direction, record: record, frame: pdu.frame,
                      bearer: pdu.channel, events: &events)
        case .malformedATT(let opcode, let error):
            if let opcode {
                attOpcodeCounts[Int(opcode.rawValue)] += 1
                malformedAnswer(opcode, error: error, link: pdu.link, direction: pdu.direction, bearer: pdu.channel,
                                record: record)
            }
        case .smp(let smp):
            handleSMP(smp, link: pdu.link, direction: pdu.direction, record: record)
            if case .identityAddressInformation(let type, let address) = smp.parameters, let conn = live[pdu.link] {
                identityAddress(address, type: type, sentOn: pdu.direction, conn, at: record.timestampUs)
            }
        case .signalling:
            if let conn = live[pdu.link], conn.connection.startedBeforeCapture { learnLink(of: conn, from: pdu) }
        case .other:
            notAnalysed(pdu, record: record)
        }
    }

    /// SMP Identity Address Information belongs to its sender (Core v5.4 Vol 3 Part H §3.6.5):
    /// the peer's (received; on air, from the peripheral, whose device `conn` is) makes its
    /// RPAs and this address one device; the central's, on air, is the central's own device;
    /// the one the local host sent is the local adapter's, no device of the capture.
    mutating func identityAddress(_ address: BluetoothAddress, type: AddressType, sentOn direction: Direction,
                                  _ conn: LiveConnection, at timeUs: Int64) {
        let identity = DeviceIdentity(value: address.description, source: "smp-identity-address")
        switch direction {
        case .received, .peripheralToCentral:
            let identitySlot = registry.slot(address, type: type)
            guard let slot = conn.slot else {
                // A link the capture did not see begin learns its peer from the address it distributed.
                identify(conn, slot: identitySlot, timeUs: timeUs)
                registry.assign(identity, to: identitySlot)
                return
            }
            registry.merge(slot, identitySlot)
            registry.assign(identity, to: slot)
        case .centralToPeripheral:
            let centralSlot = conn.connection.centralAddress.map {
                registry.slot($0, type: conn.connection.centralAddressType ?? .publicDevice)
            }
            let identitySlot = registry.slot(address, type: type)
            if let centralSlot { registry.merge(centralSlot, identitySlot) }
            registry.assign(identity, to: centralSlot ?? identitySlot)
        default:
            break
        }
    }

    /// A PDU on a channel bledecode does not decode, summarised by PSM (by CID when the capture
    /// lacks the channel's opening) on its connection: counted, never dropped silently.
    mutating func notAnalysed(_ pdu: borrowing L2CAPPDU, record: CaptureRecord) {
        let cid = pdu.frame.channelID.rawValue
        guard let conn = live[pdu.link] else {
            stats.l2capWithoutConnection += 1
            return
        }
        conn.connection.lastActivityUs = record.timestampUs
        // A K-frame carrying part of an ATT SDU is counted with the ATT PDU it completes.
        if pdu.channel.sduSegment && pdu.channel.psm == PSM.eatt.rawValue { return }
        let known = pdu.channel.psm != 0
        let local = pdu.channel.localCID != 0 ? pdu.channel.localCID : cid
        conn.countChannel(psm: known ? pdu.channel.psm : nil, cid: cid < 0x0040 ? cid : local,
                          bytes: pdu.frame.body.remaining, timeUs: record.timestampUs)
    }

    /// The bearer an ATT PDU came on, listed on its connection when first used; its key for
    /// the outstanding requests (0: the fixed channel).
    func bearerKey(_ channel: ChannelEnds, in conn: LiveConnection) -> UInt16 {
        if channel.psm == 0 {
            if !conn.fixedBearerSeen {
                conn.fixedBearerSeen = true
                conn.connection.bearers.append(ATTBearer(kind: .attFixed, psm: nil, localCID: 0x0004, remoteCID: 0x0004))
            }
            return 0
        }
        if !conn.connection.bearers.contains(where: { $0.psm == channel.psm && $0.localCID == channel.localCID }) {
            conn.connection.bearers.append(ATTBearer(kind: channel.psm == PSM.eatt.rawValue ? .eatt : .attBREDR,
                                                     psm: channel.psm, localCID: channel.localCID,
                                                     remoteCID: channel.remoteCID))
        }
        return channel.localCID
    }

    /// One ATT PDU of a live link. Inlined into `handleL2CAP`, it reads the PDU where the L2CAP
    /// content holds it: called, it would be handed a copy of it (an outlined copy of the
    /// parameters per ATT PDU).
    @inline(__always)
    mutating func handleATT(_ att: ATTPDU, link: LinkID, direction: Direction, record: CaptureRecord, frame: L2CAPFrame,
                            bearer channel: ChannelEnds, events: inout [SessionEvent]) {
        // Lent without a reference count taken and dropped per PDU: handling an ATT PDU ends no link,
        // so `live` holds the connection throughout.
        guard let unretained = live.unretained(link) else { return }
        #if DEBUG
        live.lending = true
        defer { live.lending = false }
        #endif
        unretained._withUnsafeGuaranteedRef {
            handleATT(att, in: $0, link: link, direction: direction, record: record, frame: frame, bearer: channel,
                      events: &events)
        }
    }

    @inline(__always)
    private mutating func handleATT(_ att: ATTPDU, in conn: LiveConnection, link: LinkID, direction: Direction,
                                    record: CaptureRecord, frame: L2CAPFrame, bearer channel: ChannelEnds,
                                    events: inout [SessionEvent]) {
        let bearer = channel.psm == 0 && conn.fixedBearerSeen ? 0 : bearerKey(channel, in: conn)
        let now = record.timestampUs
        conn.connection.lastActivityUs = now
        let opcode = att.opcode
        // Worked out once from the parameters (each read switches over them).
        let handle = att.handle

        switch opcode.kind {
        case .request, .indication:
            let indication = opcode.kind == .indication
            // Looked at by opcode first: the request itself is copied only when one is outstanding.
            if conn.pendingOpcode(direction, bearer: bearer, indication: indication) != nil,
               let earlier = conn.peekPending(direction, bearer: bearer, indication: indication) {
                if case .air = link, (Self.peerL2CAPUs(of: direction, in: conn) ?? .min) > earlier.transaction.requestUs
                    || conn.badCRCPackets > earlier.badCRCBefore || Self.continues(opcode, from: handle, earlier.transaction) {
                    // Over the air the sniffer misses packets: the peer sent L2CAP data after the
                    // request that decoded to no answer, packets were lost to bad CRCs since, or the
                    // client went on with its discovery; the next request shows the answer came.
                    _ = conn.takePending(direction, bearer: bearer, indication: indication)
                    answerNotCaptured(earlier, in: conn, record: record)
                } else {
                    // A second request (or indication) before the first was answered breaks the
                    // protocol (§3.3.2, §3.3.3); the first stays outstanding, its answer may still come.
                    violation(att, over: earlier, in: conn, direction: direction, record: record)
                    break
                }
            }
            // Its attribute is described when it resolves (discovery may name the handle meanwhile).
            let transaction = ATTTransaction(opcode: opcode, handle: handle, attribute: nil, direction: direction,
                                             requestUs: now, requestRecord: record.index, responseUs: nil,
                                             responseRecord: nil, responseOpcode: nil, outcome: .noResponse,
                                             errorCode: nil, value: nil)
            // The device's discovery of the other side's server is not the discovery of the device.
            if Self.isDiscovery(opcode) {
                if GATTServer(of: opcode, sentIn: direction) == .device {
                    discovering(att, in: conn, now: now)
                } else {
                    conn.connection.otherSideDiscovery = (conn.connection.otherSideDiscovery?.startUs ?? now, now)
                }
            }
            if case .readRequest(let handle) = att.parameters { conn.longValues[handle] = nil }
            conn.setPending(PendingRequest(pdu: att, transaction: transaction, badCRCBefore: conn.badCRCPackets,
                                           encryptedBefore: Self.encryptedAnswers(to: direction, in: conn)),
                            direction, bearer: bearer, indication: indication)
            nextDeadlineUs = min(nextDeadlineUs, now + options.transactionTimeoutUs)
        case .response, .confirmation:
            if opcode == .writeResponse {
                events.append(.writeResponse(connection: conn.id, timeUs: now))
            }
            // A confirmation answers an indication, a response a request: separate flows. An
            // answer must fit its request (its opcode + 1, or an Error Response naming it): one that
            // does not answers a request the capture does not hold.
            let other = Self.opposite(direction)
            if opcode.kind == .confirmation {
                if let pending = conn.takePending(other, bearer: bearer, indication: true) {
                    answer(pending, with: att, in: conn, record: record)
                } else {
                    answerWithoutRequest(att, sentIn: direction, in: conn, record: record)
                }
            } else if let request = conn.pendingOpcode(other, bearer: bearer, indication: false), Self.fits(att, request: request),
                      let pending = conn.takePending(other, bearer: bearer, indication: false) {
                answer(pending, with: att, in: conn, record: record)
            } else {
                answerWithoutRequest(att, sentIn: direction, in: conn, record: record)
            }
        case .command, .notification:
            if let handle {
                conn.countValue(opcode: opcode.rawValue, handle: handle, server: GATTServer(of: opcode, sentIn: direction))
            }
            if opcode == .writeCommand || opcode == .signedWriteCommand {
                var transaction = ATTTransaction(opcode: opcode, handle: handle, attribute: nil, direction: direction,
                                                 requestUs: now, requestRecord: record.index, responseUs: nil,
                                                 responseRecord: nil, responseOpcode: nil, outcome: .noResponseExpected,
                                                 errorCode: nil, value: nil)
                // Described only when listed: every listing shows it, nothing else does.
                if options.transactions == .all { describeAttribute(of: &transaction, in: conn) }
                store(&transaction, request: att, in: conn)
            } else if opcode == .handleValueNotification, options.transactions == .all {
                // Listed with their values, so that a listing shows what the device said when;
                // counted only among the values that need no answer (`countValue`), not as transactions.
                var transaction = ATTTransaction(opcode: opcode, handle: handle, attribute: nil,
                                                 direction: direction, requestUs: now, requestRecord: record.index,
                                                 responseUs: nil, responseRecord: nil, responseOpcode: nil,
                                                 outcome: .noResponseExpected, errorCode: nil, value: nil)
                describeAttribute(of: &transaction, in: conn)
                list(&transaction, request: att, in: conn, failed: false, asNotification: true)
            }
        case nil:
            break
        }

        // The PDUs whose values the layer above decodes: writes, notifications and indications
        // (matched here, not through `att.value`, which copies the parameters to pick one out).
        switch att.parameters {
        case .writeRequest(let written), .writeCommand(let written), .handleValueNotification(let written),
             .handleValueIndication(let written):
            sendDevice(of: conn, events: &events)
            let handle = written.handle
            events.append(.attValue(ATTValueEvent(
                connection: conn.id,
                hostToDevice: direction == .sent || direction == .centralToPeripheral, opcode: opcode, handle: handle,
                uuid: GATTServer(of: opcode, sentIn: direction) != .device ? conn.otherSideGATT.uuid(of: handle)
                    : conn.slot.map { gatt.uuid(slot: registry.root($0), handle: handle) } ?? conn.ownGATT.uuid(of: handle),
                value: written.value,
                timeUs: now, record: record.index, firstFragmentRecord: frame.firstRecordIndex,
                firstFragmentUs: frame.firstTimestampUs, mtu: conn.connection.mtu)))
        default:
            break
        }
    }

    /// An answer whose parameters do not decode, its opcode fitting what is outstanding on its
    /// flow (a request's + 1 or an Error Response, whose request cannot be read; a confirmation of
    /// an indication): the other side answered, and the request failed on that answer.
    mutating func malformedAnswer(_ opcode: ATTOpcode, error: DecodeError, link: LinkID, direction: Direction,
                                  bearer channel: ChannelEnds, record: CaptureRecord) {
        let indication = opcode.kind == .confirmation
        guard opcode.kind == .response || indication, let conn = live[link] else { return }
        let bearer = bearerKey(channel, in: conn)
        let other = Self.opposite(direction)
        guard let request = conn.pendingOpcode(other, bearer: bearer, indication: indication),
              indication || Self.mayFit(opcode, request: request),
              var pending = conn.takePending(other, bearer: bearer, indication: indication) else { return }
        conn.connection.lastActivityUs = record.timestampUs
        if case .leftover = error { pending.transaction.answerHasExtraBytes = true }
        resolve(&pending, in: conn, outcome: .malformed, responseUs: record.timestampUs, record: record.index,
                response: opcode, now: record.timestampUs, why: error.message)
    }

    /// A request sent while another on its flow is outstanding (Core v5.4 Vol 3 Part F §3.3.2):
    /// a warning of its own; the second is not tracked (its answer cannot be told from the first's).
    mutating func violation(_ att: ATTPDU, over earlier: PendingRequest, in conn: LiveConnection, direction: Direction,
                            record: CaptureRecord) {
        let server = GATTServer(of: att.opcode, sentIn: direction)
        // It was sent: counted with its opcode and handle, though no answer is matched to it.
        conn.updateTotals(TransactionTotals.Key(opcode: att.opcode.rawValue, handle: att.handle, server: server)) {
            $0.count += 1
            $0.outOfTurn += 1
        }
        let sent = what(att.opcode, handle: att.handle, on: server, in: conn)
        let earlierWhat = what(earlier.transaction.opcode, handle: earlier.transaction.handle, on: earlier.transaction.server,
                               in: conn)
        let side = Self.side(direction)
        fail(.attProtocolViolation, severity: .warning, at: record.timestampUs, record: record.index, slot: conn.slot,
             connection: conn.connection.id,
             "\(sent) sent by \(ConnectionSecurity.spoken(side)) while \(earlierWhat) was still outstanding: "
                + "ATT allows one at a time"
                + airCaveat(conn, since: earlier),
             details: [.int("opcode", att.opcode.rawValue), .string("opcodeName", att.opcode.name), .string("sentBy", side),
                       .int("outstandingOpcode", earlier.transaction.opcode.rawValue),
                       .int("outstandingRequestUs", earlier.transaction.requestUs)])
    }

    /// A response or confirmation that answers nothing the capture holds: its request came before
    /// the capture began, or the sniffer missed it. Counted, not a failure (info).
    mutating func answerWithoutRequest(_ att: ATTPDU, sentIn direction: Direction, in conn: LiveConnection, record: CaptureRecord) {
        var response = att.opcode.name
        if case .errorResponse(let error) = att.parameters {
            response += " to \(error.requestOpcode.name) (handle \(Hex.code(error.handle, width: 4)): \(error.errorCode.name) "
                + "(\(Hex.code(error.errorCode.rawValue))))"
        }
        fail(.attAnswerWithoutRequest, severity: .info, at: record.timestampUs, record: record.index, slot: conn.slot,
             connection: conn.connection.id,
             "\(response) from \(ConnectionSecurity.spoken(Self.side(direction))) answers no request the capture holds "
                + "(sent before the capture began, or not captured)",
             details: [.int("opcode", att.opcode.rawValue), .string("opcodeName", att.opcode.name)])
    }

    /// A discovery request that takes up where `earlier`, of the same procedure, left off: a client
    /// moves its starting handle past the last one a response named (Core v5.4 Vol 3 Part G
    /// §4.4.1, §4.6.1, §4.7.1), so the earlier request was answered.
    static func continues(_ opcode: ATTOpcode, from start: UInt16?, _ earlier: ATTTransaction) -> Bool {
        guard isDiscovery(opcode), opcode == earlier.opcode, let start, let earlierStart = earlier.handle else { return false }
        return start > earlierStart
    }

    /// Over the air, when the other side of `direction` last sent L2CAP data.
    static func peerL2CAPUs(of direction: Direction, in conn: LiveConnection) -> Int64? {
        switch direction {
        case .centralToPeripheral: conn.lastPeripheralL2CAPUs
        case .peripheralToCentral: conn.lastCentralL2CAPUs
        default: nil
        }
    }

    /// Responses are their request's opcode + 1 (Core v5.4 Vol 3 Part F §3.4); an Error Response
    /// names the request it answers (§3.4.1.1).
    static func fits(_ response: ATTPDU, request: ATTOpcode) -> Bool {
        if case .errorResponse(let error) = response.parameters { return error.requestOpcode == request }
        return response.opcode.rawValue == request.rawValue &+ 1
    }

    /// `fits` by the opcode alone, for an answer whose parameters cannot be read: an Error
    /// Response may then answer any request.
    static func mayFit(_ answer: ATTOpcode, request: ATTOpcode) -> Bool {
        answer == .errorResponse || answer.rawValue == request.rawValue &+ 1
    }

    /// Over the air, a request the next one on its flow shows was answered, the answer not
    /// captured: counted, not a failure (info).
    mutating func answerNotCaptured(_ earlier: PendingRequest, in conn: LiveConnection, record: CaptureRecord) {
        let key = TransactionTotals.Key(opcode: earlier.transaction.opcode.rawValue, handle: earlier.transaction.handle,
                                        server: earlier.transaction.server)
        conn.updateTotals(key) { $0.count += 1 }
        let request = what(earlier.transaction.opcode, handle: earlier.transaction.handle, on: earlier.transaction.server,
                           in: conn)
        var details: [Field] = [.int("opcode", earlier.transaction.opcode.rawValue),
                                .int("requestUs", earlier.transaction.requestUs)]
        let summary: String
        // An answer the sniffer caught the start of: its first fragment came after the request.
        if let start = Self.attStart(sentIn: Self.opposite(earlier.transaction.direction), in: conn),
           start.record > earlier.transaction.requestRecord, Self.mayFit(start.opcode, request: earlier.transaction.opcode) {
            summary = "\(request): only the start of its answer was captured (a \(start.opcode.name) began at record "
                + "\(start.record) with \(start.receivedBytes) of its \(start.pduBytes) bytes; the sniffer missed the rest)"
            details.append(.int("answerRecord", start.record))
        } else {
            summary = "\(request): its answer was not captured (the next request shows it came; the sniffer missed it)"
        }
        fail(.attAnswerNotCaptured, severity: .info, at: record.timestampUs, record: earlier.transaction.requestRecord,
             slot: conn.slot, connection: conn.connection.id, summary, details: details)
    }

    /// Over the air, the last ATT PDU the side sending in `direction` began and did not finish in
    /// that fragment.
    static func attStart(sentIn direction: Direction, in conn: LiveConnection) -> ATTStart? {
        switch direction {
        case .peripheralToCentral: conn.peripheralATTStart
        case .centralToPeripheral: conn.centralATTStart
        default: nil
        }
    }

    /// Tells the layer above who the connection is with, before its first value and when what
    /// it was told may have changed since (the registry's or the GATT databases' version moved).
    private mutating func sendDevice(of conn: LiveConnection, events: inout [SessionEvent]) {
        if let sent = conn.sentDevice, sent.registry == registry.version, sent.gatt == gatt.version { return }
        let device = ConnectionDevice(connection: conn.id,
                                      deviceID: deviceID(of: conn), profile: conn.slot.flatMap { registry.profile(of: $0) },
                                      services: conn.slot.map { gatt.services(slot: registry.root($0)) } ?? conn.ownGATT.services)
        if device != conn.sentDevice?.device { events.append(.device(device)) }
        conn.sentDevice = (registry.version, gatt.version, device)
    }

    /// A discovery request: the first discovery runs from its first request to the last one
    /// before a new primary-service discovery from handle 0x0001 begins a second later or more
    /// (a rediscovery, such as after Service Changed), which is a run of its own.
    mutating func discovering(_ att: ATTPDU, in conn: LiveConnection, now: Int64) {
        guard let first = conn.connection.discovery else {
            conn.connection.discovery = (now, now)
            return
        }
        let lastEnd = conn.connection.rediscoveries.last?.endUs ?? first.endUs
        if case .readByGroupTypeRequest(let request) = att.parameters, request.range.startHandle == 1, now - lastEnd >= 1_000_000 {
            conn.connection.rediscoveries.append((now, now))
        } else if conn.connection.rediscoveries.isEmpty {
            conn.connection.discovery = (first.startUs, now)
        } else {
            conn.connection.rediscoveries[conn.connection.rediscoveries.count - 1].endUs = now
        }
    }

    /// The requests of the GATT discovery procedures (Core v5.4 Vol 3 Part G §4.4–4.7).
    static func isDiscovery(_ opcode: ATTOpcode) -> Bool {
        switch opcode {
        case .readByGroupTypeRequest, .findByTypeValueRequest, .readByTypeRequest, .findInformationRequest: return true
        default: return false
        }
    }

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
    mutating func answer(_ pending: consuming PendingRequest, with response: ATTPDU, in conn: LiveConnection,
                         record: CaptureRecord) {
        // The request is read and the transaction changed in place, without copies.
        switch response.parameters {
        case .errorResponse(let error):
            pending.transaction.errorCode = error.errorCode
            resolve(&pending, in: conn, outcome: .error, responseUs: record.timestampUs, record: record.index,
                    response: response.opcode, now: record.timestampUs, why: nil)
            return
        case .exchangeMTUResponse(let server):
            if case .exchangeMTURequest(let client) = pending.pdu.parameters {
                // Vol 3 Part F §3.4.2.2: both use the smaller of the two, never below 23.
                conn.connection.mtu = max(23, Int(min(client, server)))
            }
        case .readBlobResponse(let part):
            if let handle = pending.pdu.handle { Self.join(part, into: &conn.longValues[handle, default: []]) }
        case .prepareWriteResponse(let prepared):
            Self.join(prepared.value, into: &conn.longValues[prepared.handle, default: []])
        case .executeWriteResponse:
            // The prepared parts become one logical value (Vol 3 Part F §3.4.6.3).
            if let (_, joined) = conn.longValues.first { pending.transaction.value = joined }
            conn.longValues.removeAll()
        case .writeResponse:
            if case .writeRequest(let write) = pending.pdu.parameters, pending.transaction.server == .device {
                subscription(write, in: conn, timeUs: record.timestampUs)
            }
        case .readResponse(let value):
            // The value is kept only where the transaction is listed (an answered one only in a listing of all).
            if options.transactions == .all {
                pending.transaction.responseValue = Array(value.prefix(ATTTransaction.valueCap))
                pending.transaction.responseValueLength = value.count
            }
            learnGATT(request: pending.pdu, response: response, server: pending.transaction.server, in: conn)
        default:
            learnGATT(request: pending.pdu, response: response, server: pending.transaction.server, in: conn)
        }
        if case .readBlobRequest(let handle, _) = pending.pdu.parameters, let joined = conn.longValues[handle] {
            pending.transaction.responseValue = Array(joined.prefix(ATTTransaction.valueCap))
            pending.transaction.responseValueLength = joined.count
        }
        resolve(&pending, in: conn, outcome: .ok, responseUs: record.timestampUs, record: record.index,
                response: response.opcode, now: record.timestampUs, why: nil)
    }

    static func join(_ part: [UInt8], into joined: inout [UInt8]) {
        if joined.count + part.count <= longValueCap { joined += part }
    }

    mutating func learnGATT(request: ATTPDU, response: ATTPDU, server: GATTServer, in conn: LiveConnection) {
        if server != .device {
            conn.otherSideGATT.learn(request: request, response: response)
            return
        }
        guard let slot = conn.slot else {
            conn.ownGATT.learn(request: request, response: response)
            // Not in `gatt.version`: the link's device is told again before its next value.
            conn.sentDevice?.gatt = -1
            return
        }
        gatt.learn(slot: registry.root(slot), request: request, response: response)
    }

    static let cccdUUID = BluetoothUUID(uint16: 0x2902)

    /// A Write Request to a Client Characteristic Configuration descriptor (Vol 3 Part G §3.3.3.3:
    /// its value is two octets; one, which a lenient server may accept, still counts). Longer
    /// writes cost no look at the GATT database.
    mutating func subscription(_ write: ATTHandleValue, in conn: LiveConnection, timeUs: Int64) {
        guard write.value.count <= 2, let first = write.value.first, let slot = conn.slot,
              gatt.uuid(slot: registry.root(slot), handle: write.handle) == Self.cccdUUID else { return }
        let database = gatt[registry.root(slot)]
        let owner = database.characteristic(containing: write.handle).map { GATTDatabase.name($0.uuid) }
            ?? "handle \(Hex.code(write.handle, width: 4))"
        conn.connection.subscriptions.append(Subscription(timeUs: timeUs, cccdHandle: write.handle, characteristic: owner,
                                                          notifications: first & 1 != 0, indications: first & 2 != 0))
    }

    /// `Write Request to Battery Level (2A19)`, `Read By Group Type Request for handles from 0x0001`.
    mutating func what(_ opcode: ATTOpcode, handle: UInt16?, on server: GATTServer, in conn: LiveConnection) -> String {
        guard let handle else { return opcode.name }
        return opcode.name + Self.preposition(opcode) + attribute(handle, of: opcode, on: server, in: conn)
    }

    /// What a request's handle stands for: a discovery request's is where its range starts
    /// (Core v5.4 Vol 3 Part F §3.4.3–3.4.4), not an attribute it reads.
    mutating func attribute(_ handle: UInt16, of opcode: ATTOpcode, on server: GATTServer, in conn: LiveConnection) -> String {
        Self.isDiscovery(opcode) ? server.possessive + "handles from \(Hex.code(handle, width: 4))" : describe(handle, on: server, in: conn)
    }

    static func preposition(_ opcode: ATTOpcode) -> String { isDiscovery(opcode) ? " for " : " to " }

    /// `Battery Level (2A19)` from the device's GATT database, or the handle; a handle of the other
    /// side's server says whose it is: `the host's handle 0x0000`.
    mutating func describe(_ handle: UInt16, on server: GATTServer, in conn: LiveConnection) -> String {
        if server != .device { return server.possessive + conn.otherSideGATT.describe(handle) }
        guard let slot = conn.slot else { return "handle \(Hex.code(handle, width: 4))" }
        return gatt[registry.root(slot)].describe(handle)
    }
}
