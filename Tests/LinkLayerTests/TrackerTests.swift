import BLEBase
import LinkLayer
import Testing

/// Builds a raw (link type 251) data packet on the demo connection with a correct CRC.
private func dataPacket(llid: UInt8, sn: Bool, nesn: Bool, _ payload: [UInt8]) -> [UInt8] {
    let pdu = [llid | (nesn ? 0x04 : 0) | (sn ? 0x08 : 0), UInt8(payload.count)] + payload
    let crc = CRC24.wireValue(pdu, initial: 0xE5_446D)
    return [0xF6, 0x82, 0x2B, 0x55] + pdu + [0, 8, 16].map { UInt8(truncatingIfNeeded: crc >> $0) }
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

    @Test func unknownAccessAddressJoins() {
        var feed = Feed()
        let result = feed.send(dataPacket(llid: 2, sn: false, nesn: false, [0x01, 0x00, 0x04, 0x00, 0x1B]), after: 0)
        #expect(result.events == [.connectionJoined(accessAddress: 0x552B_82F6)])
        #expect(result.crcStatus == .unknown && result.fragment?.isStart == true)
    }
}
