import BLEBase
import CaptureFormats
import HCI
import LinkLayer
import PacketDecoding

/// Air-sniffer captures: advertisers from advertising PDUs, connections from CONNECT_IND to
/// LL_TERMINATE_IND or silence (Core v5.4 Vol 6 Part B §2.3, §4.5).
extension SessionAnalyzer {
    mutating func handleAir(_ air: LinkLayerResult, packet: DecodedPacket, events: inout [SessionEvent]) {
        let now = packet.record.timestampUs
        if air.flags.contains(.badCRC) {
            stats.badCRCPackets += 1
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
            guard let conn = live[link] else { break }
            conn.connection.lastActivityUs = now
            if air.direction == .peripheralToCentral { conn.lastPeripheralUs = now }
        }
        for event in air.events {
            switch event {
            case .connectionCreated(let created):
                airConnection(accessAddress: created.accessAddress, created: created, record: packet.record)
            case .connectionJoined(let accessAddress):
                airConnection(accessAddress: accessAddress, created: nil, record: packet.record)
            case .connectionTerminated(let accessAddress, let reason, let sender):
                end(.air(accessAddress: accessAddress), reason: HCIStatus(rawValue: reason.rawValue),
                    initiator: sender == .centralToPeripheral ? .localHost : .remote, timeUs: now,
                    record: packet.record.index, events: &events)
            case .encryptionStarted(let accessAddress):
                live[.air(accessAddress: accessAddress)]?.connection.encrypted = true
            case .connectionExpired(let accessAddress, _):
                if let conn = live[.air(accessAddress: accessAddress)] {
                    _ = endSilent(.air(accessAddress: accessAddress), conn, atCaptureEnd: false, events: &events)
                }
            }
        }
    }

    mutating func airConnection(accessAddress: UInt32, created: LLConnection?, record: CaptureRecord) {
        let link = LinkID.air(accessAddress: accessAddress)
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
            createUs: created == nil ? nil : record.timestampUs, startUs: record.timestampUs, startRecord: record.index,
            endUs: nil, endRecord: nil, disconnectReason: nil, initiator: nil,
            completeEvent: created == nil ? "joined (no CONNECT_IND seen)" : "CONNECT_IND",
            parameters: parameters, mtu: 23, dataLength: nil, phy: nil, encrypted: false,
            lastActivityUs: record.timestampUs, transactions: [], transactionTotals: TransactionTotals(), subscriptions: [],
            crcInit: created?.crcInit, valueCounts: [:], discovery: nil)
        // A sniffer that joined a running connection did not see it begin.
        connection.startedBeforeCapture = created == nil
        live.insert(LiveConnection(connection: connection, number: connectionCount, slot: slot), for: link)
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
    mutating func endSilent(_ link: LinkID, _ conn: LiveConnection, atCaptureEnd: Bool, events: inout [SessionEvent]) -> Bool {
        let last = conn.connection.lastActivityUs
        let interval = Int64(conn.connection.parameters.first?.intervalUs ?? 0)
        guard let lastPeripheral = conn.lastPeripheralUs else {
            _ = live.remove(link)
            // An attempt, not a connection: its device no longer lists it.
            if let slot = conn.slot { registry.forgetConnection(conn.connection.id, slot: slot) }
            let status = HCIStatus(rawValue: 0x3E)
            attempts.append(ConnectionAttempt(peerAddress: conn.connection.peerAddress, deviceID: conn.connection.deviceID,
                                              createUs: conn.connection.startUs, endUs: last, outcome: .failed, status: status))
            fail(.connectionFailed, at: last, record: nil, slot: conn.slot, connection: nil,
                 "Connection to \(label(slot: conn.slot)) failed: the peripheral never answered (\(status.name), \(Hex.code(status.rawValue)))",
                 details: [.int("status", status.rawValue), .string("statusName", status.name)])
            return true
        }
        if interval > 0 && last - lastPeripheral > 2 * interval {
            let failedEarly = last - conn.connection.startUs < 6 * interval
            end(link, reason: HCIStatus(rawValue: failedEarly ? 0x3E : 0x08), initiator: .controller, timeUs: last,
                record: nil, events: &events)
            return true
        }
        if atCaptureEnd && (stats.lastTimeUs ?? last) - last <= Self.supervisionTimeoutUs(conn) { return false }
        end(link, reason: nil, initiator: .unknown, timeUs: last, record: nil, events: &events)
        return true
    }
}
