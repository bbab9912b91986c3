import BLEBase
import BLELinkLayer
import Testing

/// Builds a raw (link type 251) data packet on the demo connection with a correct CRC.
private func dataPacket(llid: UInt8, sn: Bool, nesn: Bool, _ payload: [UInt8]) -> [UInt8] {
    let pdu = [llid | (nesn ? 0x04 : 0) | (sn ? 0x08 : 0), UInt8(payload.count)] + payload
    let crc = CRC24.wireValue(pdu, initial: 0xE5_446D)
    return [0xF6, 0x82, 0x2B, 0x55] + pdu + [0, 8, 16].map { UInt8(truncatingIfNeeded: crc >> $0) }
}

/// Two conforming link layers exchanging PDUs (Core v5.4 Vol 6 Part B §4.5.9): each sends
/// SN = transmitSeqNum, NESN = nextExpectedSeqNum; a receiver whose CRC check passes takes new
/// data (SN = its NESN) and an acknowledgement (NESN ≠ its SN), and changes nothing otherwise.
private struct SequencePair {
    var central = (sn: false, nesn: false)
    var peripheral = (sn: false, nesn: false)

    /// The header bits `fromCentral`'s side sends now; `received`: the peer's CRC check passed.
    mutating func send(fromCentral: Bool, received: Bool = true) -> (sn: Bool, nesn: Bool) {
        let bits = fromCentral ? central : peripheral
        guard received else { return bits }
        var peer = fromCentral ? peripheral : central
        if bits.sn == peer.nesn { peer.nesn.toggle() }
        if bits.nesn != peer.sn { peer.sn.toggle() }
        if fromCentral { peripheral = peer } else { central = peer }
        return bits
    }
}

private struct Feed {
    var tracker = LinkLayerTracker()
    var time: Int64 = 1_000_000

    /// Advances the clock by `gap` µs and processes a link type 251 packet.
    mutating func send(_ bytes: [UInt8], after gap: Int64) -> LinkLayerResult {
        time += gap
        return tracker.process(timestampUs: time, linkType: 251, bytes: bytes)
    }
}

struct LinkLayerTrackerTests {
    @Test func connectIndCreatesTheConnection() throws {
        var feed = Feed()
        let result = feed.send(connectIndLL, after: 0)
        #expect(result.crcStatus == .valid && result.flags.isEmpty)
        guard case .connectionCreated(let c)? = result.events.first else {
            Issue.record("no connection: \(result.events)")
            return
        }
        #expect(c.accessAddress == 0x552B_82F6 && c.crcInit == 0xE5_446D && c.intervalUs == 30_000)
        #expect(c.supervisionTimeoutMs == 4000 && c.advertiserType == .randomDevice && c.initiatorType == .publicDevice)
        #expect(feed.tracker.connections.keys.sorted() == [0x552B_82F6])
    }

    @Test func infersDirectionFromEventTiming() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        let first = feed.send(dataPacket(llid: 1, sn: false, nesn: false, []), after: 2_000)
        let reply = feed.send(dataPacket(llid: 1, sn: false, nesn: true, []), after: 300)
        let nextEvent = feed.send(dataPacket(llid: 1, sn: true, nesn: true, []), after: 29_700)
        #expect(first.direction == .centralToPeripheral && first.flags == [.empty, .directionInferred])
        #expect(reply.direction == .peripheralToCentral)
        #expect(nextEvent.direction == .centralToPeripheral)
        #expect(first.crcStatus == .valid)
    }

    @Test func retransmissionIsFlaggedAndNotFedAgain() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        let write: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x52, 0x10, 0x00]   // L2CAP len 3, CID 4, ATT Write Cmd
        let original = feed.send(dataPacket(llid: 2, sn: false, nesn: false, write), after: 2_000)
        // The peripheral NAKs it (NESN stays 0), so the central resends SN 0 in the next event.
        _ = feed.send(dataPacket(llid: 1, sn: false, nesn: false, []), after: 300)
        let resend = feed.send(dataPacket(llid: 2, sn: false, nesn: false, write), after: 29_700)
        // Now acknowledged (NESN 1): the next SN 1 packet is new.
        _ = feed.send(dataPacket(llid: 1, sn: false, nesn: true, []), after: 300)
        let next = feed.send(dataPacket(llid: 2, sn: true, nesn: true, write), after: 29_700)
        #expect(original.fragment == L2CAPFragment(accessAddress: 0x552B_82F6, direction: .centralToPeripheral,
                                                   isStart: true, bytes: write))
        #expect(resend.flags.contains(.retransmission) && resend.fragment == nil)
        #expect(!next.flags.contains(.retransmission) && next.fragment != nil)
    }

    /// A resend repeats the payload (§4.5.9); the same unacknowledged SN with another payload
    /// is new data whose logged header bits were not what went on air.
    @Test func sameSNWithAnotherPayloadIsNewData() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        let write: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x52, 0x10, 0x00]   // ATT Write Command
        let read: [UInt8] = [0x03, 0x00, 0x04, 0x00, 0x0A, 0x10, 0x00]    // ATT Read Request
        let first = feed.send(dataPacket(llid: 2, sn: false, nesn: false, write), after: 2_000)
        let second = feed.send(dataPacket(llid: 2, sn: false, nesn: false, read), after: 29_700)
        let again = feed.send(dataPacket(llid: 2, sn: false, nesn: false, read), after: 30_000)
        #expect(first.fragment?.bytes == write && second.fragment?.bytes == read)
        #expect(!second.flags.contains(.retransmission))
        #expect(again.flags.contains(.retransmission) && again.fragment == nil)
    }

    /// Ten conforming events, then one whose central packet the sniffer missed: timing alone
    /// would call the peripheral's reply C→P, the settled SN/NESN parity says P→C.
    @Test(arguments: [false, true])
    func sequenceParitySettlesDirection(peripheralMissedFirst: Bool) {
        var feed = Feed()
        var pair = SequencePair()
        _ = feed.send(connectIndLL, after: 0)
        var directions: [LinkDirection?] = []
        for event in 0..<10 {
            let c = pair.send(fromCentral: true, received: !(peripheralMissedFirst && event == 0))
            directions.append(feed.send(dataPacket(llid: 1, sn: c.sn, nesn: c.nesn, []), after: 29_700).direction)
            let p = pair.send(fromCentral: false)
            directions.append(feed.send(dataPacket(llid: 1, sn: p.sn, nesn: p.nesn, []), after: 300).direction)
        }
        #expect(directions == Array(repeating: [.centralToPeripheral, .peripheralToCentral], count: 10).flatMap { $0 })
        // A corrupted first packet leaves the peripheral's first reply at (0, 0): from then on
        // the central is the side with SN ≠ NESN.
        #expect((pair.central.sn == pair.central.nesn) == !peripheralMissedFirst)
        _ = pair.send(fromCentral: true)                           // on air, not captured
        let p = pair.send(fromCentral: false)
        let reply = feed.send(dataPacket(llid: 1, sn: p.sn, nesn: p.nesn, []), after: 30_000)
        #expect(reply.direction == .peripheralToCentral && reply.flags == [.empty, .directionInferred])
    }

    /// Before eight votes the parity does not overrule timing.
    @Test func timingStandsUntilTheParityVoteIsClear() {
        var feed = Feed()
        var pair = SequencePair()
        _ = feed.send(connectIndLL, after: 0)
        for _ in 0..<3 {
            let c = pair.send(fromCentral: true)
            _ = feed.send(dataPacket(llid: 1, sn: c.sn, nesn: c.nesn, []), after: 29_700)
            let p = pair.send(fromCentral: false)
            _ = feed.send(dataPacket(llid: 1, sn: p.sn, nesn: p.nesn, []), after: 300)
        }
        _ = pair.send(fromCentral: true)
        let p = pair.send(fromCentral: false)
        let reply = feed.send(dataPacket(llid: 1, sn: p.sn, nesn: p.nesn, []), after: 30_000)
        #expect(reply.direction == .centralToPeripheral)
    }

    @Test func badCRCNeverFeeds() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        var corrupted = dataPacket(llid: 2, sn: false, nesn: false, [0x01, 0x00, 0x04, 0x00, 0x1B])
        corrupted[corrupted.count - 1] ^= 0xFF
        let result = feed.send(corrupted, after: 2_000)
        #expect(result.crcStatus == .invalid && result.flags.contains(.badCRC) && result.fragment == nil)
    }

    @Test func payloadsAfterStartEncReqAreEncrypted() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        _ = feed.send(dataPacket(llid: 1, sn: false, nesn: false, []), after: 2_000)
        let start = feed.send(dataPacket(llid: 3, sn: false, nesn: true, [0x05]), after: 300)   // START_ENC_REQ from P
        let cipher = feed.send(dataPacket(llid: 2, sn: true, nesn: true, [1, 2, 3, 4, 5, 6, 7, 8, 9]), after: 29_700)
        #expect(start.events == [.encryptionStarted(accessAddress: 0x552B_82F6)])
        #expect(cipher.flags.contains(.encrypted) && cipher.fragment == nil)
        #expect(cipher.packet?.summary == "Encrypted LL Data start 9 bytes")
    }

    @Test func terminateEndsTheConnection() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        let end = feed.send(terminateLL, after: 2_000)
        #expect(end.events == [.connectionTerminated(accessAddress: 0x552B_82F6, reason: .remoteUserTerminated,
                                                     sender: .centralToPeripheral)])
        #expect(end.packet?.summary == "LL_TERMINATE_IND reason Remote User Terminated Connection (0x13)")
        _ = feed.send(connectIndLL.prefix(6) + [], after: 2_000_000)   // any later record frees the state
        #expect(feed.tracker.connections.isEmpty)
    }

    @Test func silentConnectionsExpire() {
        var feed = Feed()
        _ = feed.send(connectIndLL, after: 0)
        let later = feed.send(connectIndLL.prefix(6) + [], after: 30_000_001)
        #expect(later.events == [.connectionExpired(accessAddress: 0x552B_82F6, lastSeenUs: 1_000_000)])
        #expect(later.error == .truncated(layer: .linkLayer, field: "PDU", at: 4, needed: 36, available: 2))
    }

    /// Data PDUs on an access address no CONNECT_IND announced are noise until the other side
    /// answers (here 150 µs later, inferred from timing): then the link is joined.
    @Test func unknownAccessAddressJoinsWhenAnswered() {
        var feed = Feed()
        let first = feed.send(dataPacket(llid: 2, sn: false, nesn: false, [0x01, 0x00, 0x04, 0x00, 0x1B]), after: 0)
        #expect(first.events == [] && first.flags == [.noise, .directionInferred] && first.fragment == nil)
        #expect(feed.tracker.connections.isEmpty)
        let answer = feed.send(dataPacket(llid: 2, sn: false, nesn: true, [0x01, 0x00, 0x04, 0x00, 0x1B]), after: 150)
        #expect(answer.events == [.connectionJoined(accessAddress: 0x552B_82F6)])
        #expect(answer.direction == .peripheralToCentral)
        #expect(answer.crcStatus == .unknown && answer.fragment?.isStart == true)
    }

    /// Never answered, the address is forgotten after four seconds of silence, without an event.
    @Test func unansweredAccessAddressIsForgotten() {
        var feed = Feed()
        _ = feed.send(dataPacket(llid: 1, sn: false, nesn: false, []), after: 0)
        let later = feed.send(connectIndLL.prefix(6) + [], after: 4_000_001)
        #expect(later.events == [])
        let again = feed.send(dataPacket(llid: 1, sn: false, nesn: false, []), after: 1_000_000)
        #expect(again.flags.contains(.noise) && again.events == [])
    }
}
