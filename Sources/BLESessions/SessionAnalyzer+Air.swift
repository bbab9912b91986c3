import BLEBase
import BLECaptureFormats
import BLEHCI
import BLELinkLayer
import BLEPacketDecoding

/// Air-sniffer captures: advertisers from advertising PDUs, connections from CONNECT_IND to
/// LL_TERMINATE_IND or silence (Core v5.4 Vol 6 Part B §2.3, §4.5).
extension SessionAnalyzer {
    mutating func handleAir(_ air: LinkLayerResult, packet: DecodedPacket, events: inout [SessionEvent]) {
        let now = packet.record.timestampUs
        // Events first: the packet that confirms a link (the peripheral's answer) is its first,
        // and any packet, even a bad one, carries the expiry of links gone silent.
        if !air.events.isEmpty { airEvents(air.events, packet: packet, events: &events) }
        if air.flags.contains(.badCRC) || air.flags.contains(.noise) {
            if air.flags.contains(.badCRC) {
                stats.badCRCPackets += 1
                lostWithBadCRC(air)
            }
            stats.undecodableRadioPackets += 1
            return
        }
        guard let ll = air.packet else { return }
        switch ll.pdu {
        case .advertising(let adv):
            guard adv.header.pduType != .scanReq, adv.header.pduType != .connectInd,
                  let address = adv.advertiserAddress else { break }
            advertised(address, type: adv.header.txAddressType, timeUs: now,
                       rssi: air.metadata?.rssiDBm.map { Int8(clamping: $0) },
                       scanResponse: adv.header.pduType == .scanRsp, data: packet.airAdvertisingData)
        case .data:
            let link = LinkID.air(accessAddress: ll.accessAddress)
            // A control PDU of an opcode without a layout is counted, on its link when one is up
            // (a retransmission is the same PDU again). Read only where there is no fragment, as
            // below: binding every data PDU would copy it.
            if air.fragment == nil, !air.flags.contains(.retransmission), case .data(let data) = ll.pdu,
               case .control(let control) = data.content, !control.opcode.isKnown {
                let bytes = 1 + control.extraOctets.count
                PacketsNotAnalysed.count(.llControlUnknown, code: Int(control.opcode.rawValue), bytes: bytes, timeUs: now,
                                         record: packet.record.index, in: &stats.packetsNotAnalysed)
                if let conn = live[link] {
                    PacketsNotAnalysed.count(.llControlUnknown, code: Int(control.opcode.rawValue), bytes: bytes, timeUs: now,
                                             record: packet.record.index, in: &conn.connection.packetsNotAnalysed)
                }
            }
            guard let conn = live[link] else { break }
            conn.connection.lastActivityUs = now
            if air.direction == .peripheralToCentral {
                conn.lastPeripheralUs = now
                conn.lastPeripheralRecord = packet.record.index
            } else {
                conn.lastCentralUs = now
            }
            if air.flags.contains(.encrypted), !air.flags.contains(.retransmission) {
                if air.direction == .peripheralToCentral { conn.encryptedFromPeripheral += 1 } else { conn.encryptedFromCentral += 1 }
            }
            // L2CAP data by the tracker's fragment (no copy of the PDU); control PDUs read only
            // where there is no fragment.
            if let fragment = air.fragment {
                let fromPeripheral = fragment.direction == .peripheralToCentral
                if fromPeripheral { conn.lastPeripheralL2CAPUs = now } else { conn.lastCentralL2CAPUs = now }
                if fragment.isStart, !air.flags.contains(.retransmission),
                   let start = ATTStart(record: packet.record.index, bytes: fragment.bytes) {
                    if fromPeripheral { conn.peripheralATTStart = start } else { conn.centralATTStart = start }
                }
            } else if !air.flags.contains(.retransmission), case .data(let data) = ll.pdu,
                      case .control(let control) = data.content {
                airEncryptionControl(control, in: conn, record: packet.record)
            }
        }
    }

    /// A packet lost to a bad CRC belongs to the link of its access address; one whose access
    /// address cannot be read may belong to any link up at the time; an advertising one to none.
    private func lostWithBadCRC(_ air: LinkLayerResult) {
        let hint = air.metadata?.pduHint
        let advertisingChannel = hint == .advertising || hint == .auxiliaryAdvertising
            || (air.metadata?.channelIndex).map { $0 >= 37 } ?? false
        if let accessAddress = air.packet?.accessAddress {
            if accessAddress == LLPacket.advertisingAccessAddress { return }
            if let conn = live[.air(accessAddress: accessAddress)] {
                conn.badCRCPackets += 1
                return
            }
        }
        if advertisingChannel { return }
        for (link, conn) in live.all {
            if case .air = link { conn.badCRCPackets += 1 }
        }
    }

    private mutating func airEvents(_ airEvents: [LinkLayerEvent], packet: DecodedPacket, events: inout [SessionEvent]) {
        let now = packet.record.timestampUs
        for event in airEvents {
            switch event {
            case .connectionCreated(let created):
                airConnection(accessAddress: created.accessAddress, created: created, record: packet.record, events: &events)
            case .connectionJoined(let accessAddress):
                airConnection(accessAddress: accessAddress, created: nil, record: packet.record, events: &events)
            case .connectionTerminated(let accessAddress, let reason, let sender):
                end(.air(accessAddress: accessAddress), reason: HCIStatus(rawValue: reason.rawValue),
                    initiator: sender == .centralToPeripheral ? .localHost : .remote, timeUs: now,
                    record: packet.record.index, events: &events)
            case .encryptionStarted(let accessAddress):
                if let conn = live[.air(accessAddress: accessAddress)] {
                    encryptionChanged(in: conn, kind: .start, status: 0, statusName: "Success", keySize: nil,
                                      source: "link-layer", record: packet.record)
                }
            case .connectionExpired(let accessAddress, _):
                if let conn = live[.air(accessAddress: accessAddress)] {
                    _ = endSilent(.air(accessAddress: accessAddress), conn, atCaptureEnd: false, now: now, events: &events)
                }
            }
        }
    }

    /// LL_REJECT_IND / LL_REJECT_EXT_IND refusing LL_ENC_REQ (the peripheral's host had no key:
    /// 0x06), and LL_PAUSE_ENC_REQ (Core v5.4 Vol 6 Part B §5.1.3).
    mutating func airEncryptionControl(_ control: ControlPDU, in conn: LiveConnection, record: CaptureRecord) {
        switch control.opcode {
        case .rejectExtInd, .rejectInd:
            if control.opcode == .rejectExtInd, case .opcode(let rejected)? = control.parameter("rejectOpcode"),
               rejected != .encReq { return }
            // LL_REJECT_IND answers only LL_ENC_REQ and LL_CONNECTION_PARAM_REQ; the latter is
            // told by its code (0x1A/0x3B/…), so only key-related codes are taken here.
            guard let code = control.errorCode,
                  control.opcode == .rejectExtInd || [0x06, 0x05, 0x1A, 0x25].contains(code.rawValue) else { return }
            let status = HCIStatus(rawValue: code.rawValue)
            encryptionChanged(in: conn, kind: .start, status: code.rawValue, statusName: status.name, keySize: nil,
                              source: "link-layer", record: record)
        case .pauseEncReq:
            conn.connection.encrypted = false
            encryptionChanged(in: conn, kind: .pause, status: 0, statusName: "Success", keySize: nil, source: "link-layer",
                              record: record)
        default:
            break
        }
    }

    mutating func airConnection(accessAddress: UInt32, created: LLConnection?, record: CaptureRecord,
                                events: inout [SessionEvent]) {
        let link = LinkID.air(accessAddress: accessAddress)
        // A CONNECT_IND on an address in use starts a new connection: the old one ended before
        // it, as its own packets tell (`endSilent`: end not captured unless they show more).
        if let old = live[link] { _ = endSilent(link, old, atCaptureEnd: false, now: record.timestampUs, events: &events) }
        var slot: Int?
        if let advertiser = created?.advertiser {
            slot = registry.slot(advertiser, type: created?.advertiserType ?? .publicDevice)
        }
        let id = newConnectionID()
        var parameters: [ConnectionParameters] = []
        if let interval = created?.intervalUs {
            parameters.append(ConnectionParameters(timeUs: record.timestampUs, intervalUs: interval,
                                                   latency: Int(created?.latency ?? 0),
                                                   supervisionTimeoutMs: created?.supervisionTimeoutMs ?? 0))
        }
        var connection = Connection(
            id: id, deviceID: slot.map { registry.deviceID(of: $0) }, link: link, handle: nil, accessAddress: accessAddress,
            peerAddress: created?.advertiser, peerAddressType: created?.advertiserType, role: .unknown,
            createUs: created?.startedUs, startUs: record.timestampUs, startRecord: record.index,
            endUs: nil, endRecord: nil, disconnectReason: nil, initiator: nil,
            completeEvent: created == nil ? "joined (no CONNECT_IND seen)" : "CONNECT_IND",
            parameters: parameters, mtu: 23, dataLength: nil, phy: nil, encrypted: false,
            lastActivityUs: record.timestampUs, transactions: [], transactionTotals: TransactionTotals(), subscriptions: [],
            crcInit: created?.crcInit, valueCounts: [], discovery: nil)
        connection.centralAddress = created?.initiator
        connection.centralAddressType = created?.initiatorType
        // A sniffer that joined a running connection did not see it begin.
        connection.startedBeforeCapture = created == nil
        live.insert(LiveConnection(connection: connection, slot: slot), for: link)
        stats.maxConcurrentConnections = max(stats.maxConcurrentConnections, live.count)
        if let slot { registry.sawConnection(slot: slot, id: id, timeUs: record.timestampUs) }
    }

    /// An air link that is still open when the capture ends, or when the tracker gives up on it
    /// after a long silence. The central transmits in every connection event and the peripheral
    /// answers (Core v5.4 Vol 6 Part B §4.5.1), so the last packets tell what happened:
    /// - the peripheral never answered: the connection failed to be established (0x3E), an
    ///   attempt rather than a connection;
    /// - the central kept polling for more than two intervals after the peripheral's last
    ///   answer: the link was being lost; it ended at its last packet, as 0x3E within six
    ///   intervals of its start (§4.5.2), else as a supervision timeout (0x08);
    /// - both sides talked to the end: at the end of the capture the link is dangling; when the
    ///   tracker expires it mid-capture, it ended with no reason captured; so did a link silent for
    ///   longer than its supervision timeout before the capture ended (gone, or lost by the
    ///   sniffer: either way not known to be up).
    /// `now` is the time of the record that showed the silence (the end of the capture at its end).
    mutating func endSilent(_ link: LinkID, _ conn: LiveConnection, atCaptureEnd: Bool, now: Int64,
                            events: inout [SessionEvent]) -> Bool {
        let last = conn.connection.lastActivityUs
        let interval = Int64(conn.connection.parameters.first?.intervalUs ?? 0)
        guard let lastPeripheral = conn.lastPeripheralUs else {
            _ = live.remove(link)
            // An attempt, not a connection: nothing in the report may name it as one.
            let id = conn.connection.id
            if let slot = conn.slot { registry.forgetConnection(slot: slot, id: id) }
            for index in failures.indices where failures[index].connectionID == id { failures[index].connectionID = nil }
            for index in notices.indices where notices[index].connectionID == id { notices[index].connectionID = nil }
            guard conn.lastCentralUs != nil else {
                // Nothing on the new access address: the sniffer did not follow the link, whose
                // fate the capture does not show. An attempt never completed, not a failure.
                attempts.append(ConnectionAttempt(peerAddress: conn.connection.peerAddress,
                                                  deviceID: conn.connection.deviceID, createUs: conn.connection.startUs,
                                                  endUs: nil, outcome: .neverCompleted, status: nil))
                fail(.connectionNotFollowed, severity: .warning, at: conn.connection.startUs,
                     record: conn.connection.startRecord, slot: conn.slot, connection: nil,
                     "CONNECT_IND to \(label(slot: conn.slot)) on access address "
                        + "\(Hex.code(conn.connection.accessAddress ?? 0, width: 8)): the sniffer did not follow the link, "
                        + "whose fate the capture does not show")
                return true
            }
            let status = HCIStatus(rawValue: 0x3E)
            attempts.append(ConnectionAttempt(peerAddress: conn.connection.peerAddress, deviceID: conn.connection.deviceID,
                                              createUs: conn.connection.startUs, endUs: last, outcome: .failed, status: status))
            fail(.connectionFailed, at: last, record: nil, slot: conn.slot, connection: nil,
                 "Connection to \(label(slot: conn.slot)) failed: the central's packets on access address "
                    + "\(Hex.code(conn.connection.accessAddress ?? 0, width: 8)) went unanswered "
                    + "(\(status.name), \(Hex.code(status.rawValue)))",
                 details: [.int("status", status.rawValue), .string("statusName", status.name)])
            return true
        }
        if interval > 0 && last - lastPeripheral > 2 * interval {
            let failedEarly = last - conn.connection.startUs < 6 * interval
            let inferred = "inferred from silence: the central kept polling, the peripheral stopped answering"
            // The central drops the link one supervision timeout after it last heard the peripheral
            // (Core v5.4 Vol 6 Part B §4.5.2): then, unless the central polled past it (the sniffer
            // missed the peripheral) or the capture shows nothing that late.
            let timeoutMs = conn.connection.parameters.last?.supervisionTimeoutMs ?? 0
            let due = lastPeripheral + Int64(timeoutMs) * 1000
            if !failedEarly, timeoutMs > 0, due >= last, due <= now {
                end(link, reason: HCIStatus(rawValue: 0x08), initiator: .controller, timeUs: due,
                    record: conn.lastPeripheralRecord,
                    inferred: inferred + "; lost one supervision timeout (\(Self.seconds(Int64(timeoutMs) * 1000))) after "
                        + "its last packet" + (conn.lastPeripheralRecord.map { " (record \($0))" } ?? ""),
                    events: &events)
                return true
            }
            end(link, reason: HCIStatus(rawValue: failedEarly ? 0x3E : 0x08), initiator: .controller, timeUs: last,
                record: nil, inferred: inferred, events: &events)
            return true
        }
        if atCaptureEnd && (stats.lastTimeUs ?? last) - last <= Self.supervisionTimeoutUs(conn) { return false }
        end(link, reason: nil, initiator: .unknown, timeUs: last, record: nil,
            inferred: "inferred from silence: no termination seen", events: &events)
        return true
    }
}
