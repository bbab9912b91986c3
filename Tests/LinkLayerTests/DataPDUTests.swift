import BLEBase
import BLELinkLayer
import Testing

private func data(_ header: UInt8, _ payload: [UInt8], encrypted: Bool = false,
                  decrypted: Bool = false) throws(DecodeError) -> DataChannelPDU {
    var reader = ByteReader([header, UInt8(payload.count)] + payload, layer: .linkLayer)
    return try DataChannelPDU(parsing: &reader, encrypted: encrypted, decrypted: decrypted)
}

private func control(_ payload: [UInt8]) throws(DecodeError) -> ControlPDU {
    let pdu = try data(0x03, payload)
    guard case .control(let control) = pdu.content else {
        throw DecodeError.invalid(layer: .linkLayer, field: "test", at: 0, reason: "not control")
    }
    return control
}

struct DataChannelPDUTests {
    @Test func decodesHeaderBits() throws {
        let pdu = try data(0x1E, [0xAA])   // LLID 10, NESN 1, SN 1, MD 1, CP 0
        #expect(pdu.header.llid == .start && pdu.header.nesn && pdu.header.sn && pdu.header.md && !pdu.header.cp)
        #expect(pdu.content == .l2capStart([0xAA]))
        #expect(pdu.summary == "LL Data start 1 bytes")
    }

    @Test func emptyAndContinuation() throws {
        #expect(try data(0x01, []).content == .empty)
        #expect(try data(0x01, []).summary == "Empty PDU")
        #expect(try data(0x01, [1, 2]).content == .l2capContinuation([1, 2]))
    }

    @Test func cteInfoFollowsTheHeader() throws {
        var reader = ByteReader([0x22, 0x01, 0x14, 0xEE])  // LLID 10, CP; length 1; CTEInfo 0x14; payload
        let pdu = try DataChannelPDU(parsing: &reader, encrypted: false, decrypted: false)
        #expect(pdu.cteInfo == 0x14 && pdu.content == .l2capStart([0xEE]))
    }

    @Test func encryptedPayloadIsNotDecoded() throws {
        let pdu = try data(0x03, [0x02, 0x13, 1, 2, 3, 4], encrypted: true)
        #expect(pdu.content == .encrypted([0x02, 0x13, 1, 2, 3, 4]))
        #expect(pdu.summary == "Encrypted LL Control 6 bytes")
    }

    @Test func decryptedPayloadDropsTheMIC() throws {
        let pdu = try data(0x02, [0x01, 0x02, 0xA1, 0xA2, 0xA3, 0xA4], decrypted: true)
        #expect(pdu.content == .l2capStart([0x01, 0x02]) && pdu.mic == [0xA1, 0xA2, 0xA3, 0xA4])
    }

    /// The nRF Sniffer writes decrypted PDUs with the MIC removed and Length reduced: an
    /// LL_TERMINATE_IND is its two octets.
    @Test func decryptedPayloadWithoutMICIsWhole() throws {
        var reader = ByteReader([0x03, 0x02, 0x02, 0x13], layer: .linkLayer)
        let pdu = try DataChannelPDU(parsing: &reader, encrypted: false, decrypted: true, micIncluded: false)
        #expect(pdu.mic == nil && pdu.summary == "LL_TERMINATE_IND reason Remote User Terminated Connection (0x13)")
    }

    @Test func headerTruncations() {
        for (length, field) in [(0, "data channel header"), (1, "data channel length")] {
            var reader = ByteReader(Array([0x02, 0x01].prefix(length)), layer: .linkLayer)
            #expect(throws: DecodeError.truncated(layer: .linkLayer, field: field, at: length, needed: 1, available: 0)) {
                try DataChannelPDU(parsing: &reader, encrypted: false, decrypted: false)
            }
        }
    }
}

struct ControlPDUTests {
    @Test func terminateInd() throws {
        let c = try control([0x02, 0x13])   // LL_TERMINATE_IND, Remote User Terminated Connection
        #expect(c.opcode == .terminateInd && c.errorCode == .remoteUserTerminated)
        #expect(c.summary == "LL_TERMINATE_IND reason Remote User Terminated Connection (0x13)")
    }

    @Test func connectionUpdateInd() throws {
        let c = try control([
            0x00,        // LL_CONNECTION_UPDATE_IND
            0x02,        // WinSize 2
            0x04, 0x00,  // WinOffset 4
            0x18, 0x00,  // Interval 24
            0x01, 0x00,  // Latency 1
            0x90, 0x01,  // Timeout 400
            0x0C, 0x00,  // Instant 12
        ])
        #expect(c.unsigned("interval") == 24 && c.unsigned("timeout") == 400 && c.unsigned("instant") == 12)
        #expect(c.summary == "LL_CONNECTION_UPDATE_IND winSize 2.50 ms winOffset 5.00 ms interval 30.00 ms "
                + "latency 1 timeout 4000 ms instant 12")
    }

    @Test func versionInd() throws {
        let c = try control([
            0x0C,        // LL_VERSION_IND
            0x09,        // VersNr 5.0
            0x59, 0x00,  // CompId 0x0059
            0x34, 0x12,  // SubVersNr 0x1234
        ])
        #expect(c.summary == "LL_VERSION_IND versNr Bluetooth 5.0 (0x09) compId 89 subVersNr 4660")
        #expect(c.fields.first == Field.code("opcode", 0x0C, label: "LL_VERSION_IND"))
    }

    @Test func phyAndRejectExt() throws {
        #expect(try control([0x16, 0x03, 0x06]).summary == "LL_PHY_REQ txPhys 1M|2M rxPhys 2M|Coded")
        #expect(try control([0x11, 0x0F, 0x1A]).summary
                == "LL_REJECT_EXT_IND rejectOpcode LL_CONNECTION_PARAM_REQ (0x0F) errorCode Unsupported Remote Feature (0x1A)")
        #expect(try control([0x05]).summary == "LL_START_ENC_REQ")
    }

    @Test func unknownOpcodeKeepsCtrData() throws {
        let c = try control([0x7F, 0xAB, 0xCD])
        #expect(c.opcode.name == "Unknown (0x7F)" && c.parameters.isEmpty && c.extraOctets == [0xAB, 0xCD])
        #expect(c.summary == "Unknown (0x7F) abcd")
    }

    @Test func extraOctetsAreKept() throws {
        let c = try control([0x02, 0x13, 0xFF])
        #expect(c.errorCode == .remoteUserTerminated && c.extraOctets == [0xFF])
    }

    @Test func everyShortCtrDataIsTyped() {
        let full: [UInt8] = [0x00, 0x02, 0x04, 0x00, 0x18, 0x00, 0x01, 0x00, 0x90, 0x01, 0x0C, 0x00]
        #expect(throws: DecodeError.truncated(layer: .linkLayer, field: "control opcode", at: 0, needed: 1, available: 0)) {
            var reader = ByteReader([], layer: .linkLayer)
            _ = try ControlPDU(parsing: &reader)
        }
        for length in 1..<full.count {
            var reader = ByteReader(Array(full.prefix(length)), layer: .linkLayer)
            #expect(throws: DecodeError.truncated(layer: .linkLayer, field: "LL_CONNECTION_UPDATE_IND CtrData", at: 1,
                                                  needed: 11, available: length - 1)) {
                try ControlPDU(parsing: &reader)
            }
        }
    }

    @Test func errorCodeNames() {
        #expect(LLErrorCode(rawValue: 0x08).name == "Connection Timeout")
        #expect(LLErrorCode(rawValue: 0x3E).name == "Connection Failed to be Established")
        #expect(LLErrorCode(rawValue: 0x45).name == "Packet Too Long")
        #expect(LLErrorCode(rawValue: 0x46).name == "Unknown (0x46)")
    }
}
