import BLEBase
import BLELinkLayer
import Testing

/// A data packet of `swt_st_att_deadlock.pcap` (nRF Sniffer protocol v2 header as SweynTooth
/// writes it: channel 0, RSSI 0, delta 0) on access address 0x9a328370.
private func swtPacket(flags: UInt8, eventCounter: UInt8, _ ll: [UInt8]) -> [UInt8] {
    [0x4B,                                  // board 75
     UInt8(ll.count + 14), 0x00,            // payload length (event packet + AA + PDU + CRC)
     0x02,                                  // protocol version 2
     0x00, 0x00,                            // packet counter
     0x00,                                  // packet ID
     0x0A,                                  // event packet length
     flags,                                 // bit0 CRC OK, bit1 C→P, bit2 encrypted
     0x00,                                  // channel index 0
     0x00,                                  // RSSI 0
     eventCounter, 0x00,                    // event counter
     0x00, 0x00, 0x00, 0x00,                // delta time
     0x70, 0x83, 0x32, 0x9A] + ll           // access address
}

/// Frames of the SweynTooth "sequential ATT deadlock" capture, bytes as recorded.
struct SweynToothTests {
    /// SweynTooth drives the link itself and logs PDUs as its host handled them:
    /// - its own (central) PDUs carry SN = NESN = 0 whatever went on air; the peripheral's NESN
    ///   toggles show they were new. Frames 103 and 104 are two different ATT requests with
    ///   SN 0 and no peripheral packet between: tshark marks both "[Retransmit]" yet counts both;
    ///   a resend repeats its payload (Core v5.4 Vol 6 Part B §4.5.9), so both are new data;
    /// - after LL_START_ENC_RSP it logs the plaintext with the header's encrypted flag clear
    ///   (frame 79, SMP Identity Information) and a zero CRC the header still calls OK.
    @Test func sweynToothLogsHostSideHeaders() {
        let frames: [(number: Int, timeUs: Int64, bytes: [UInt8])] = [
            (75, 2_138_648, swtPacket(flags: 0x01, eventCounter: 0x37,   // P→C LL_START_ENC_REQ SN1 NESN0
                                      [0x0B, 0x01, 0x05, 0x5C, 0x39, 0x95])),
            (76, 2_140_979, swtPacket(flags: 0x03, eventCounter: 0x37,   // C→P LL_START_ENC_RSP SN0 NESN0
                                      [0x03, 0x01, 0x06, 0xB3, 0xEE, 0x05])),
            (78, 2_180_332, swtPacket(flags: 0x01, eventCounter: 0x39,   // P→C LL_START_ENC_RSP, CRC 0
                                      [0x0B, 0x01, 0x06, 0x00, 0x00, 0x00])),
            (79, 2_199_882, swtPacket(flags: 0x01, eventCounter: 0x3A,   // P→C SMP Identity Information
                                      [0x06, 0x15,                         // LLID 10, NESN 1, SN 0; length 21
                                       0x11, 0x00, 0x06, 0x00,             // L2CAP length 17, CID 6
                                       0x08,                               // Identity Information
                                       0xD3, 0x18, 0x44, 0xCA, 0x4B, 0x5A, 0xAA, 0x26,
                                       0x5E, 0xBD, 0xD9, 0x70, 0x92, 0x00, 0x3E, 0x1D, // IRK
                                       0x00, 0x00, 0x00])),                // CRC as logged
            (102, 2_621_255, swtPacket(flags: 0x01, eventCounter: 0x4F,  // P→C empty SN0 NESN1
                                       [0x05, 0x00, 0xB3, 0xAD, 0x0F])),
            (103, 2_627_659, swtPacket(flags: 0x03, eventCounter: 0x4F,  // C→P ATT Write Request
                                       [0x02, 0x08,                        // LLID 10, NESN 0, SN 0; length 8
                                        0x04, 0x00, 0x04, 0x00,            // L2CAP length 4, CID 4
                                        0x12, 0x11, 0x00, 0x00,            // Write Request handle 0x0011
                                        0x0D, 0x5B, 0x3A])),
            (104, 2_631_204, swtPacket(flags: 0x03, eventCounter: 0x4F,  // C→P ATT Read By Group Type Request
                                       [0x02, 0x0B,                        // LLID 10, NESN 0, SN 0; length 11
                                        0x07, 0x00, 0x04, 0x00,            // L2CAP length 7, CID 4
                                        0x10, 0x01, 0x00, 0xFF, 0xFF,      // handles 0x0001–0xFFFF
                                        0x01, 0x28,                        // Secondary Service
                                        0xD0, 0x36, 0xDD])),
            (105, 2_638_413, swtPacket(flags: 0x01, eventCounter: 0x50,  // P→C empty SN1 NESN0
                                       [0x09, 0x00, 0xB3, 0x7D, 0xA1])),
            (106, 2_659_773, swtPacket(flags: 0x01, eventCounter: 0x51,  // P→C ATT Error Response
                                       [0x06, 0x09,                        // LLID 10, NESN 1, SN 0; length 9
                                        0x05, 0x00, 0x04, 0x00,            // L2CAP length 5, CID 4
                                        0x01, 0x12, 0x11, 0x00, 0x03,      // Write Request 0x0011: Write Not Permitted
                                        0x00, 0x00, 0x00])),
        ]
        var tracker = LinkLayerTracker()
        var results: [Int: LinkLayerResult] = [:]
        for frame in frames {
            results[frame.number] = tracker.process(timestampUs: frame.timeUs, linkType: 272, bytes: frame.bytes)
        }
        // Without its CONNECT_IND (frames cut out of the capture), the address is joined once both
        // sides were heard: frame 75 alone is unattributed.
        #expect(results[75]?.events == [] && results[75]?.flags == [.noise])
        #expect(results[76]?.events == [.connectionJoined(accessAddress: 0x9A32_8370)])
        #expect(results[79]?.crcStatus == .valid && results[79]?.flags == [])
        #expect(results[79]?.fragment?.bytes.prefix(5) == [0x11, 0x00, 0x06, 0x00, 0x08])
        #expect(results[103]?.fragment?.bytes == [0x04, 0x00, 0x04, 0x00, 0x12, 0x11, 0x00, 0x00])
        #expect(results[104]?.fragment?.bytes == [0x07, 0x00, 0x04, 0x00, 0x10, 0x01, 0x00, 0xFF, 0xFF, 0x01, 0x28])
        #expect(results[104]?.flags == [] && results[104]?.direction == .centralToPeripheral)
        #expect(results[106]?.fragment?.direction == .peripheralToCentral)
    }
}
