import BLEBase

/// Follows LE connections across air-sniffer records: which access addresses are live, their
/// CRC presets, who sent each data PDU, which PDUs are resends, when encryption starts and
/// when the link ends. A value type: copy it to fork the state.
///
/// Memory is bounded by live connections: a connection is dropped once silent for
/// max(4 × supervision timeout, 30 s), and one second after its LL_TERMINATE_IND.
public struct LinkLayerTracker: Sendable {
    struct SideState: Sendable {
        var lastSN: Bool?
        /// The payload of the last packet accepted from this side: a resend repeats it.
        var lastContent: DataPDUContent?
        /// The peer's NESN moved past `lastSN` since that packet.
        var acknowledged = false
        /// The SN and NESN values this side's packets carried (bit 0: 0 seen, bit 1: 1 seen).
        var snValues: UInt8 = 0
        var nesnValues: UInt8 = 0
        /// The side's sequence bits move, so they are what went on air: a driver that logs its
        /// own sends with SN = NESN = 0 throughout gives no evidence of a resend.
        var bitsMove: Bool { snValues == 0b11 || nesnValues == 0b11 }
        /// When this side's last packet was seen.
        var lastUs: Int64?
    }

    struct ConnectionState: Sendable {
        var info: LLConnection
        var lastSeenUs: Int64
        var lastPacketUs: Int64?
        var lastDirection: LinkDirection?
        var sides: [LinkDirection: SideState] = [:]
        var encrypted = false
        var terminatedUs: Int64?
        /// Half the shortest connection interval seen: a longer gap starts a connection event.
        var eventGapUs: Int64
        /// Timing-inferred packets whose SN = NESN matched a central (+1) or a peripheral (−1),
        /// clamped to ±`parityVoteLimit`; see `inferDirection(sn:nesn:at:)`.
        var parityVotes = 0
        /// The link is real: announced by a whole CONNECT_IND with a good CRC, or answered. Until
        /// then its packets are radio noise and it reports nothing.
        var confirmed: Bool
        /// `info` comes from a CONNECT_IND (possibly short or CRC-bad while not `confirmed`).
        var announced: Bool
        /// The directions seen while not confirmed.
        var sawCentral = false
        var sawPeripheral = false

        init(info: LLConnection, timestampUs: Int64, confirmed: Bool = true, announced: Bool = true) {
            self.info = info
            lastSeenUs = timestampUs
            eventGapUs = Int64(info.intervalUs ?? LinkLayerTracker.minimumIntervalUs) / 2
            self.confirmed = confirmed
            self.announced = announced
        }
    }

    /// Core v5.4 Vol 6 Part B §4.5.1: connInterval is at least 7.5 ms.
    static let minimumIntervalUs = 7_500
    static let minimumSilenceUs: Int64 = 30_000_000
    static let terminatedGraceUs: Int64 = 1_000_000
    /// Votes needed before the SN/NESN parity overrules event timing.
    static let parityVoteThreshold = 8
    static let parityVoteLimit = 32
    /// An access address nobody confirmed is forgotten after this silence (the longest
    /// connection interval is 4 s, Core v5.4 Vol 6 Part B §4.5.1).
    static let unconfirmedSilenceUs: Int64 = 4_000_000
    /// At most this many unconfirmed access addresses are followed at once; past it, packets on
    /// new ones are noise without a state (a noisy capture cannot grow the tracker).
    static let unconfirmedLimit = 64

    private var states: [UInt32: ConnectionState] = [:]

    public init() {}

    /// The live connections by access address (confirmed ones: announced or answered).
    public var connections: [UInt32: LLConnection] { states.filter(\.value.confirmed).mapValues(\.info) }

    /// One or two bits from the advertising access address: a corrupted advertising packet
    /// (Core v5.4 Vol 6 Part B §2.1.2 forbids a link access address one bit away; two bits is
    /// allowed but far likelier noise than a link no CONNECT_IND announced).
    static func isCorruptedAdvertisingAddress(_ accessAddress: UInt32) -> Bool {
        let distance = (accessAddress ^ LLPacket.advertisingAccessAddress).nonzeroBitCount
        return distance == 1 || distance == 2
    }

    /// Decodes one record's payload of `linkType` and updates the connection state.
    public mutating func process(timestampUs: Int64, linkType: UInt32, bytes: [UInt8],
                                 baseOffset: Int = 0) -> LinkLayerResult {
        var result = LinkLayerResult(timestampUs: timestampUs)
        result.events = expire(now: timestampUs)
        var reader = ByteReader(bytes, layer: .linkLayer, baseOffset: baseOffset)
        let air: AirPacket
        do {
            air = try AirPacket(parsing: &reader, linkType: AirLinkType(rawValue: linkType))
        } catch {
            result.error = error
            return result
        }
        let metadata = air.metadata
        result.metadata = metadata
        var ll = ByteReader(air.llBytes, layer: .linkLayer, baseOffset: reader.reportedOffset - air.llBytes.count)
        let accessAddress = (try? ll.peekAccessAddress()) ?? 0
        let advertising: Bool
        switch metadata.pduHint {
        case .advertising, .auxiliaryAdvertising: advertising = true
        case .data, .connectedIsochronous, .broadcastIsochronous: advertising = false
        case .unspecified: advertising = accessAddress == LLPacket.advertisingAccessAddress
        }
        if metadata.crcChecked { result.crcStatus = metadata.crcValid ? .valid : .invalid }

        if advertising {
            processAdvertising(&result, reader: &ll, metadata: metadata, timestampUs: timestampUs)
            // The sniffer called it advertising, but its access address took bit errors.
            if Self.isCorruptedAdvertisingAddress(accessAddress) { result.flags.insert(.noise) }
        } else {
            processData(&result, reader: &ll, metadata: metadata, accessAddress: accessAddress,
                        timestampUs: timestampUs)
        }
        if result.crcStatus == .invalid { result.flags.insert(.badCRC) }
        return result
    }

    private mutating func processAdvertising(_ result: inout LinkLayerResult, reader: inout ByteReader,
                                             metadata: AirPacketMetadata, timestampUs: Int64) {
        let start = reader
        do {
            let packet = try LLPacket(parsing: &reader, advertising: true, coded: metadata.phy == .leCoded,
                                      crcInit: CRC24.advertisingInit)
            result.packet = packet
            settleCRC(&result, packet)
        } catch {
            result.error = error
            announceProvisionally(start, coded: metadata.phy == .leCoded, timestampUs: timestampUs)
            return
        }
        guard case .advertising(let adv)? = result.packet?.pdu, case .connect(let connect) = adv.payload,
              !Self.isCorruptedAdvertisingAddress(result.packet?.accessAddress ?? 0) else { return }
        guard result.crcStatus != .invalid else {
            announceProvisionally(start, coded: metadata.phy == .leCoded, timestampUs: timestampUs)
            return
        }
        // A new CONNECT_IND on an access address in use starts a new connection (test tools
        // reuse one address); the layer above ends the old one.
        let info = LLConnection(connect, header: adv.header, timestampUs: timestampUs)
        states[connect.accessAddress] = ConnectionState(info: info, timestampUs: timestampUs)
        result.events.append(.connectionCreated(info))
    }

    /// A CONNECT_IND shorter than its 34 bytes, or with a bad CRC, whose access address can be
    /// read: the link is real if the peripheral answers on that address (then it is reported
    /// created, with what the CONNECT_IND held). `reader` is at the access address.
    private mutating func announceProvisionally(_ reader: ByteReader, coded: Bool, timestampUs: Int64) {
        var r = reader
        guard (try? r.skip(coded ? 5 : 4)) != nil, let header = try? r.readUInt8(), header & 0x0F == 0x05,
              let length = try? r.readUInt8() else { return }
        let payload = r.unreadBytes.prefix(Int(length))
        guard payload.count >= 16 else { return }
        func le(_ at: Int, _ count: Int) -> UInt32? {
            guard payload.count >= at + count else { return nil }
            var v: UInt32 = 0
            for i in (0..<count).reversed() { v = v << 8 | UInt32(payload[payload.startIndex + at + i]) }
            return v
        }
        guard let accessAddress = le(12, 4), states[accessAddress]?.confirmed != true,
              !Self.isCorruptedAdvertisingAddress(accessAddress), accessAddress != LLPacket.advertisingAccessAddress,
              states.count(where: { !$0.value.confirmed }) < Self.unconfirmedLimit
        else { return }
        var info = LLConnection(joinedAccessAddress: accessAddress, timestampUs: timestampUs)
        info.initiator = BluetoothAddress(wire: Array(payload.prefix(6)))
        info.initiatorType = header & 0x40 != 0 ? .randomDevice : .publicDevice
        info.advertiser = BluetoothAddress(wire: Array(payload.dropFirst(6).prefix(6)))
        info.advertiserType = header & 0x80 != 0 ? .randomDevice : .publicDevice
        info.crcInit = le(16, 3)
        if let interval = le(22, 2), interval > 0 { info.intervalUs = Int(interval) * 1250 }
        if let timeout = le(26, 2) { info.supervisionTimeoutMs = Int(timeout) * 10 }
        states[accessAddress] = ConnectionState(info: info, timestampUs: timestampUs, confirmed: false)
    }

    private mutating func processData(_ result: inout LinkLayerResult, reader: inout ByteReader,
                                      metadata: AirPacketMetadata, accessAddress: UInt32, timestampUs: Int64) {
        let known = states[accessAddress]
        // Core v5.4 Vol 6 Part B §5.1.3.1: the central answers LL_START_ENC_REQ encrypted, so
        // everything after it travels encrypted. An encrypted payload holds at least one octet
        // plus the 4-octet MIC (§2.4), so shorter PDUs are plaintext (e.g. LL_PAUSE_ENC_RSP).
        // A header that states the encryption state wins: tools that own the link (SweynTooth)
        // log the plaintext they sent and received and say so.
        var peek = reader
        let length = (try? peek.peekDataLength()) ?? 0
        let linkEncrypted = metadata.encryptionStated ? metadata.encrypted : known?.encrypted == true
        let encrypted = linkEncrypted && !metadata.decrypted && length >= 5
        do {
            let packet = try LLPacket(parsing: &reader, advertising: false, coded: metadata.phy == .leCoded,
                                      crcInit: known?.info.crcInit, encrypted: encrypted,
                                      decrypted: metadata.decrypted, micIncluded: metadata.micIncluded)
            result.packet = packet
            settleCRC(&result, packet)
        } catch {
            result.error = error
        }
        guard case .data(let pdu)? = result.packet?.pdu else {
            result.direction = metadata.direction
            return
        }
        if pdu.isEmpty { result.flags.insert(.empty) }
        if case .encrypted = pdu.content {
            result.flags.insert(.encrypted)
            if metadata.notDecrypted { result.flags.insert(.notDecrypted) }
        }

        guard result.crcStatus != .invalid else {
            result.direction = metadata.direction
            return
        }
        var state: ConnectionState
        if let known {
            state = known
        } else {
            // Radio noise, not a link: an advertising packet whose access address took bit
            // errors, or a "data" PDU on an advertising channel (37–39).
            let advertisingChannel = metadata.channelIndex.map { $0 >= 37 } ?? false
            if Self.isCorruptedAdvertisingAddress(accessAddress) || advertisingChannel
                || states.count(where: { !$0.value.confirmed }) >= Self.unconfirmedLimit {
                result.direction = metadata.direction
                result.flags.insert(.noise)
                return
            }
            state = ConnectionState(info: LLConnection(joinedAccessAddress: accessAddress, timestampUs: timestampUs),
                                    timestampUs: timestampUs, confirmed: false, announced: false)
        }
        let direction: LinkDirection
        if let stated = metadata.direction {
            direction = stated
        } else {
            direction = state.inferDirection(sn: pdu.header.sn, nesn: pdu.header.nesn, at: timestampUs)
            result.flags.insert(.directionInferred)
        }
        result.direction = direction
        state.lastSeenUs = timestampUs
        state.lastPacketUs = timestampUs
        state.lastDirection = direction

        let isNew = state.acceptSequence(sn: pdu.header.sn, nesn: pdu.header.nesn, content: pdu.content,
                                         from: direction, at: timestampUs)
        if !state.confirmed {
            // Confirmed by an answer: the peripheral's packet on an announced address, both
            // sides' packets on one nobody announced. Until then, noise.
            if direction == .centralToPeripheral { state.sawCentral = true } else { state.sawPeripheral = true }
            guard state.sawPeripheral && (state.announced || state.sawCentral) else {
                result.flags.insert(.noise)
                states[accessAddress] = state
                return
            }
            state.confirmed = true
            result.events.append(state.announced ? .connectionCreated(state.info)
                                                 : .connectionJoined(accessAddress: accessAddress))
        }
        if !isNew { result.flags.insert(.retransmission) }
        if isNew {
            switch pdu.content {
            case .l2capStart(let bytes), .l2capContinuation(let bytes):
                result.fragment = L2CAPFragment(accessAddress: accessAddress, direction: direction,
                                                isStart: pdu.header.llid == .start, bytes: bytes)
            case .control(let control):
                apply(control, to: &state, direction: direction, timestampUs: timestampUs, events: &result.events)
            case .empty, .encrypted, .reserved:
                break
            }
        }
        states[accessAddress] = state
    }

    private func apply(_ control: ControlPDU, to state: inout ConnectionState, direction: LinkDirection,
                       timestampUs: Int64, events: inout [LinkLayerEvent]) {
        switch control.opcode {
        case .terminateInd:
            let reason = control.errorCode ?? LLErrorCode(rawValue: 0)
            state.terminatedUs = timestampUs
            events.append(.connectionTerminated(accessAddress: state.info.accessAddress, reason: reason,
                                                sender: direction))
        case .startEncReq:
            if !state.encrypted {
                state.encrypted = true
                events.append(.encryptionStarted(accessAddress: state.info.accessAddress))
            }
        case .pauseEncRsp:
            // Sent in the clear by the central to end the pause (Core v5.4 Vol 6 Part B §5.1.3.2).
            state.encrypted = false
        case .connectionUpdateInd:
            if let slots = control.unsigned("interval"), slots > 0 {
                state.eventGapUs = Swift.min(state.eventGapUs, Int64(slots) * 1250 / 2)
            }
            if let timeout = control.unsigned("timeout") {
                state.info.supervisionTimeoutMs = Swift.max(state.info.supervisionTimeoutMs ?? 0, Int(timeout) * 10)
            }
        default:
            break
        }
    }

    private func settleCRC(_ result: inout LinkLayerResult, _ packet: LLPacket) {
        guard result.crcStatus == .unknown, let matches = packet.crcMatches else { return }
        result.crcStatus = matches ? .valid : .invalid
    }

    /// Drops connections silent too long, and terminated ones after a short grace.
    private mutating func expire(now: Int64) -> [LinkLayerEvent] {
        var events: [LinkLayerEvent] = []
        for (aa, state) in states {
            if !state.confirmed {
                if now - state.lastSeenUs > Self.unconfirmedSilenceUs { states[aa] = nil }
                continue
            }
            if let ended = state.terminatedUs {
                if now - ended > Self.terminatedGraceUs { states[aa] = nil }
                continue
            }
            let timeoutUs = Int64(state.info.supervisionTimeoutMs ?? 0) * 1000 * 4
            if now - state.lastSeenUs > Swift.max(timeoutUs, Self.minimumSilenceUs) {
                states[aa] = nil
                events.append(.connectionExpired(accessAddress: aa, lastSeenUs: state.lastSeenUs))
            }
        }
        return events.sorted { $0.sortKey < $1.sortKey }
    }
}

extension LinkLayerTracker.ConnectionState {
    /// Who sent a data PDU when the header does not say. Timing first (Core v5.4 Vol 6 Part B
    /// §4.5.1): the central transmits first in every connection event and the sides then
    /// alternate; a gap longer than half the interval starts an event. That guess fails when
    /// the sniffer misses the central's packet opening an event.
    ///
    /// The sequence bits do not (§4.5.9): a side sends SN = transmitSeqNum, NESN =
    /// nextExpectedSeqNum, and after receiving a good packet sets transmitSeqNum to its NESN
    /// and nextExpectedSeqNum to its SN + 1; after a bad one it changes neither. So each
    /// side's SN ⊕ NESN is constant and the two sides' differ: from (0, 0) the central keeps
    /// SN = NESN, unless the peripheral's first reply followed a corrupted packet, which
    /// swaps the roles for the whole connection. Timing-inferred packets vote on which side
    /// has SN = NESN; once the vote is clear, the bits decide.
    mutating func inferDirection(sn: Bool, nesn: Bool, at timestampUs: Int64) -> LinkDirection {
        let timed: LinkDirection
        if let last = lastPacketUs, let lastDirection, timestampUs - last <= eventGapUs {
            timed = lastDirection.reversed
        } else {
            timed = .centralToPeripheral
        }
        let limit = LinkLayerTracker.parityVoteLimit
        let centralLike = sn == nesn
        let vote = centralLike == (timed == .centralToPeripheral) ? 1 : -1
        parityVotes = Swift.max(-limit, Swift.min(limit, parityVotes + vote))
        guard abs(parityVotes) >= LinkLayerTracker.parityVoteThreshold else { return timed }
        return centralLike == (parityVotes > 0) ? .centralToPeripheral : .peripheralToCentral
    }

    /// Core v5.4 Vol 6 Part B §4.5.9: a packet whose SN equals that of the last packet from the
    /// same side, before the peer acknowledged it (NESN ≠ that SN), is that packet resent, and
    /// a resend repeats the payload. The same SN with another payload is new data whose header
    /// bits were not what went on air (SweynTooth logs its own PDUs with SN = NESN = 0), and so
    /// is a packet from a side whose SN and NESN never moved, unless it follows the last within
    /// two connection intervals (a link layer resends at the next event; a driver logging its
    /// sends with SN = NESN = 0 repeats a request much later). Returns false for a resend. The
    /// packet's NESN acknowledges the peer's last packet.
    mutating func acceptSequence(sn: Bool, nesn: Bool, content: DataPDUContent,
                                 from direction: LinkDirection, at timestampUs: Int64) -> Bool {
        var own = sides[direction] ?? LinkLayerTracker.SideState()
        own.snValues |= sn ? 0b10 : 0b01
        own.nesnValues |= nesn ? 0b10 : 0b01
        let nextEvent = own.lastUs.map { timestampUs - $0 <= 4 * eventGapUs } ?? false
        own.lastUs = timestampUs
        let resend = own.lastSN == sn && !own.acknowledged && own.lastContent == content
            && (own.bitsMove || nextEvent)
        if !resend {
            own.lastSN = sn
            own.lastContent = content
            own.acknowledged = false
        }
        sides[direction] = own
        if var peer = sides[direction.reversed], let peerSN = peer.lastSN, nesn != peerSN {
            peer.acknowledged = true
            sides[direction.reversed] = peer
        }
        return !resend
    }
}

extension LinkLayerEvent {
    fileprivate var sortKey: UInt32 {
        if case .connectionExpired(let aa, _) = self { return aa }
        return 0
    }
}

extension ByteReader {
    fileprivate func peekAccessAddress() throws(DecodeError) -> UInt32 {
        var copy = self
        return try copy.readUInt32LE("access address")
    }

    /// The Length octet of a data channel PDU, reader at the access address.
    fileprivate mutating func peekDataLength() throws(DecodeError) -> Int {
        try skip(5, "access address and header")
        return Int(try readUInt8("data channel length"))
    }
}
