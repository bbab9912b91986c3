import BLEBase
import BLELinkLayer
import Testing

/// Where our ATT counts differ from tshark's on the real air captures (docs/air-captures.md,
/// "Deliberate differences"), the bytes as recorded (link type 256, RF pseudo-header) and why.
/// tshark counts frames; a link-layer resend carries the same ATT PDU again.
struct TsharkDifferenceTests {
    private static func hex(_ text: String) -> [UInt8] { Hex.bytes(text.replacingOccurrences(of: " ", with: "")) ?? [] }

    private static func run(_ frames: [(number: Int, timeUs: Int64, hex: String)]) -> [Int: LinkLayerResult] {
        var tracker = LinkLayerTracker()
        var results: [Int: LinkLayerResult] = [:]
        for frame in frames {
            results[frame.number] = tracker.process(timestampUs: frame.timeUs, linkType: 256, bytes: hex(frame.hex))
        }
        return results
    }

    /// `whad_ble_discovery.pcap` (interval 50 ms): frame 157, the central's Find Information
    /// Request 0x001D–0xFFFF with SN 1 NESN 1, then frame 158 at the next event with the same
    /// SN, NESN and bytes and no peripheral packet between: not acknowledged, so resent
    /// (Core v5.4 Vol 6 Part B §4.5.9). Frame 159's SN 0 shows the resend was acknowledged.
    /// tshark counts ATT 0x04 seven times, we six.
    @Test func whadFrame158ResendsFrame157() {
        let results = Self.run([
            (150, 16_391_842, "16 cb 80 00 ce cd c5 2a 93 0d ce cd c5 2a 09 00 00 00 00"),        // P→C empty SN1 NESN0
            (151, 16_441_539, "1c de 80 00 ce cd c5 2a 13 0d ce cd c5 2a 01 00 00 00 00"),        // C→P empty SN0 NESN0
            (156, 16_541_769, "02 cb 80 00 ce cd c5 2a 93 0d ce cd c5 2a 05 00 00 00 00"),        // P→C empty SN0 NESN1
            (157, 16_591_539, "08 d9 80 00 ce cd c5 2a 13 0d ce cd c5 2a 0e 09 05 00 04 00 04 1d 00 ff ff 00 00 00"),
            (158, 16_641_538, "0f da 80 00 ce cd c5 2a 13 0d ce cd c5 2a 0e 09 05 00 04 00 04 1d 00 ff ff 00 00 00"),
            (159, 16_691_537, "15 dc 80 00 ce cd c5 2a 13 0d ce cd c5 2a 01 00 00 00 00"),        // C→P empty SN0 NESN0
            (160, 16_691_766, "15 cb 80 00 ce cd c5 2a 93 0d ce cd c5 2a 06 09 05 00 04 00 01 04 1d 00 0a 00 00 00"),
        ])
        #expect(results[157]?.fragment?.bytes == [0x05, 0x00, 0x04, 0x00, 0x04, 0x1D, 0x00, 0xFF, 0xFF])
        #expect(results[157]?.flags == [] && results[157]?.direction == .centralToPeripheral)
        #expect(results[158]?.flags == [.retransmission] && results[158]?.fragment == nil)
        #expect(results[160]?.fragment?.bytes == [0x05, 0x00, 0x04, 0x00, 0x01, 0x04, 0x1D, 0x00, 0x0A])
    }

    /// `crackle_lesc.pcapng` (no direction in the header, no CRC verdict): frame 59, an
    /// Exchange MTU Request with SN 0 NESN 1, then frame 60 at the next event, same header and
    /// bytes, nothing from the peripheral between: a resend. tshark counts ATT 0x02 twice, we once.
    @Test func crackleFrame60ResendsFrame59() {
        let results = Self.run([
            (57, 1_558_250, "16 f0 c9 00 00 00 00 00 27 00 27 4a 65 50 1a 0b 07 00 06 00 01 03 00 09 10 0d 0f ae 88 ca"),
            (58, 1_558_499, "16 00 c9 00 00 00 00 00 27 00 27 4a 65 50 01 00 79 f4 8e"),
            (59, 1_558_761, "16 00 c9 00 00 00 00 00 27 00 27 4a 65 50 06 07 03 00 04 00 02 05 02 67 46 04"),
            (60, 1_625_713, "1b eb c9 00 00 00 00 00 27 00 27 4a 65 50 06 07 03 00 04 00 02 05 02 67 46 04"),
        ])
        #expect(results[59]?.fragment?.bytes == [0x03, 0x00, 0x04, 0x00, 0x02, 0x05, 0x02])
        #expect(results[59]?.direction == .centralToPeripheral && results[60]?.direction == .centralToPeripheral)
        #expect(results[60]?.flags == [.retransmission, .directionInferred] && results[60]?.fragment == nil)
    }
}
