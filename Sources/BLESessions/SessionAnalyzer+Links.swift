import BLEBase
import BLECaptureFormats
import BLEHCI
import BLEL2CAP
import BLEPacketDecoding

/// Links the capture did not see begin, and BR/EDR links (Core v5.4 Vol 4 Part E §7.7.3,
/// §7.7.5, §7.7.7, §7.7.38): every link that carries traffic in the capture is a connection.
extension SessionAnalyzer {
    /// An ACL record on a handle with no live connection: the link was up before the capture
    /// began (or its completion was not captured); it becomes a connection from this record.
    /// A handle reused after its Disconnection Complete is a new connection.
    mutating func linkWithoutCompletion(handle: UInt16, record: CaptureRecord) {
        let link = LinkID.hci(adapter: record.adapter, handle: handle)
        guard !live.contains(link) else { return }
        beganBeforeCapture(link, handle: handle, at: record)
    }

    @discardableResult
    mutating func beganBeforeCapture(_ link: LinkID, handle: UInt16, at record: CaptureRecord) -> LiveConnection {
        let id = newConnectionID()
        var connection = Connection(
            id: id, deviceID: nil, link: link, handle: handle, accessAddress: nil, peerAddress: nil, peerAddressType: nil,
            role: .unknown, createUs: nil, startUs: record.timestampUs, startRecord: record.index, endUs: nil,
            endRecord: nil, disconnectReason: nil, initiator: nil, completeEvent: "none (connected before the capture)",
            parameters: [], mtu: 23, dataLength: nil, phy: nil, encrypted: false, lastActivityUs: record.timestampUs,
            transactions: [], transactionTotals: TransactionTotals(), subscriptions: [], crcInit: nil, valueCounts: [],
            discovery: nil)
        connection.startedBeforeCapture = true
        let conn = LiveConnection(connection: connection, slot: nil)
        live.insert(conn, for: link)
        stats.maxConcurrentConnections = max(stats.maxConcurrentConnections, live.count)
        return conn
    }

    /// A Disconnection Complete for a handle with no live connection: a link that was up before
    /// the capture and carried nothing in it (an SCO link's end excepted).
    mutating func disconnectionOfUnknownLink(handle: UInt16, record: CaptureRecord) {
        let link = LinkID.hci(adapter: record.adapter, handle: handle)
        guard live[link] == nil else { return }
        if synchronousHandles.remove(handle) != nil { return }
        beganBeforeCapture(link, handle: handle, at: record)
    }

    /// LE CIS Established (Core v5.4 Vol 4 Part E §7.7.65.25: status, then the CIS handle): an
    /// isochronous link carries audio, not L2CAP, and its Disconnection Complete ends no connection.
    mutating func isochronousLink(subevent: UInt8, _ bytes: [UInt8]) {
        var r = ByteReader(bytes, layer: .hci)
        guard subevent == 0x19, (try? r.readUInt8("Status")) == 0,
              let handle = try? r.readUInt16LE("Connection_Handle") else { return }
        synchronousHandles.insert(handle & 0x0FFF)
    }

    /// A BR/EDR Create Connection or Accept Connection Request: the role the link will start in.
    mutating func classicCommand(_ command: HCICommandPacket) {
        guard let request = ClassicConnectionRequest(command) else { return }
        classicRequests.removeAll { $0.address == request.address }
        classicRequests.append(request)
        if classicRequests.count > Self.pendingCommandCap { classicRequests.removeFirst() }
    }

    /// The BR/EDR events that make or name a Classic link.
    mutating func handle(_ event: ClassicLinkEvent, record: CaptureRecord) {
        switch event {
        case .connectionComplete(let complete):
            guard complete.isACL else {
                // An SCO link carries audio, not L2CAP: its end is not a connection's.
                if complete.status.isSuccess { synchronousHandles.insert(complete.connectionHandle) }
                return
            }
            let slot = registry.slot(complete.address, type: .publicDevice)
            guard complete.status.isSuccess else {
                attempts.append(ConnectionAttempt(peerAddress: complete.address, deviceID: registry.deviceID(of: slot),
                                                  createUs: record.timestampUs, endUs: record.timestampUs,
                                                  outcome: .failed, status: complete.status))
                fail(.connectionFailed, at: record.timestampUs, record: record.index, slot: slot, connection: nil,
                     "BR/EDR connection to \(label(slot: slot)) failed: \(complete.status.name) (\(Hex.code(complete.status.rawValue)))",
                     details: [.int("status", complete.status.rawValue), .string("statusName", complete.status.name)])
                return
            }
            let id = newConnectionID()
            let link = LinkID.hci(adapter: record.adapter, handle: complete.connectionHandle)
            let requested = classicRequests.firstIndex { $0.address == complete.address }.map { classicRequests.remove(at: $0) }
            var connection = Connection(
                id: id, deviceID: registry.deviceID(of: slot), link: link, handle: complete.connectionHandle,
                accessAddress: nil, peerAddress: complete.address, peerAddressType: .publicDevice,
                role: requested.map { $0.role == 0x00 ? .central : .peripheral } ?? .unknown,
                createUs: nil, startUs: record.timestampUs, startRecord: record.index, endUs: nil, endRecord: nil,
                disconnectReason: nil, initiator: nil, completeEvent: "Connection Complete", parameters: [], mtu: 23,
                dataLength: nil, phy: nil, encrypted: complete.encryptionEnabled != 0, lastActivityUs: record.timestampUs,
                transactions: [], transactionTotals: TransactionTotals(), subscriptions: [], crcInit: nil,
                valueCounts: [], discovery: nil)
            connection.transport = .brEdr
            if let previous = live[link] {
                // A new connection on a handle still open: the end was not captured.
                previous.connection.endUs = previous.connection.lastActivityUs
                previous.connection.endRecord = record.index
                previous.connection.initiator = .unknown
                keep(previous)
            }
            live.insert(LiveConnection(connection: connection, slot: slot), for: link)
            stats.maxConcurrentConnections = max(stats.maxConcurrentConnections, live.count)
            registry.sawConnection(slot: slot, id: id, timeUs: record.timestampUs)
        case .synchronousConnectionComplete(let status, let handle):
            if status.isSuccess { synchronousHandles.insert(handle) }
        case .roleChange(let status, let address, let newRole):
            guard status.isSuccess else { return }
            for conn in live.all.values where conn.connection.transport == .brEdr && conn.connection.peerAddress == address {
                conn.connection.role = newRole == 0x00 ? .central : .peripheral
            }
        case .authenticationComplete(let status, let handle):
            // Authenticated, the link was up: one the capture did not see begin is a connection.
            if status.isSuccess { linkWithoutCompletion(handle: handle, record: record) }
            if let conn = live[.hci(adapter: record.adapter, handle: handle)] {
                authenticationComplete(status, in: conn, record: record)
            }
        case .remoteNameRequestComplete(let named):
            guard named.status.isSuccess, !named.name.isEmpty else { return }
            registry.sawName(named.name, slot: registry.slot(named.address, type: .publicDevice))
        case .extendedInquiryResult(let result):
            if let name = result.data.localName {
                registry.sawName(name, slot: registry.slot(result.address, type: .publicDevice))
            }
        }
    }

    /// What the capture reveals of a link it did not see begin: BR/EDR signalling (CID 0x0001)
    /// says it is a Classic link; an identity address says who the peer is.
    mutating func learnLink(of conn: LiveConnection, from pdu: borrowing L2CAPPDU) {
        if pdu.frame.channelID == .signalling { conn.connection.transport = .brEdr }
    }

    /// A link with no peer yet learns it from SMP Identity Address Information.
    mutating func identify(_ conn: LiveConnection, slot: Int, timeUs: Int64) {
        conn.slot = slot
        conn.connection.deviceID = registry.deviceID(of: slot)
        conn.connection.peerAddress = registry.states[slot].address
        registry.sawConnection(slot: slot, id: conn.id, timeUs: timeUs)
    }
}
