import AnalyzerTestSupport
import BLEBase
import CaptureFormats
import HCI
import PacketDecoding
import Sessions
import Testing

/// Air-sniffer captures as sniffers really write them (docs/air-captures.md), built with the air
/// scenario builder and run through the whole pipeline.
struct AirCaptureTests {
    static let central = BluetoothAddress("C0:11:22:33:44:55")!
    static let peripheral = BluetoothAddress("D1:5C:F0:EE:02:8F")!
    static let peripheralIdentity = BluetoothAddress("F1:00:00:00:00:01")!
    static let centralIdentity = BluetoothAddress("C1:00:00:00:00:02")!
    static let aa: UInt32 = 0x5065_4BD1

    /// Advertising, CONNECT_IND, an MTU exchange in the clear, then (once the link is encrypted)
    /// a Read, SMP key distribution both ways and LL_TERMINATE_IND, each with `flags`.
    static func encryptedLink(_ framing: AirScenario.Framing, flags: AirScenario.NordicFlags) -> AirScenario {
        var s = AirScenario(framing: framing)
        s.advertise(peripheral)
        s.connectInd(initA: central, advA: peripheral, accessAddress: aa)
        s.wait(ms: 2)
        s.empty(aa, .central)
        s.empty(aa, .peripheral)
        s.att(aa, .central, [0x02, 0x00, 0x02])                         // Exchange MTU Request 512
        s.att(aa, .peripheral, [0x03, 0xF7, 0x00])                      // Exchange MTU Response 247
        s.wait(ms: 30)
        s.att(aa, .central, [0x0A, 0x03, 0x00], flags: flags)           // Read Request 0x0003
        s.att(aa, .peripheral, [0x0B, 0x42, 0x43, 0x44], flags: flags)  // Read Response "BCD"
        // SMP Identity Information (IRK) and Identity Address Information (public), each side.
        s.smp(aa, .peripheral, [0x08] + Array(repeating: 0x11, count: 16), flags: flags)
        s.smp(aa, .peripheral, [0x09, 0x00] + peripheralIdentity.wire, flags: flags)
        s.smp(aa, .central, [0x08] + Array(repeating: 0x22, count: 16), flags: flags)
        s.smp(aa, .central, [0x09, 0x00] + centralIdentity.wire, flags: flags)
        s.wait(ms: 30)
        s.terminate(aa, .central, reason: 0x13, flags: flags)
        s.empty(aa, .peripheral, flags: flags)
        return s
    }

    /// Checks that every PDU of `encryptedLink` decoded whole.
    static func expectWhole(_ s: AirScenario) {
        let (report, _) = analyze(s.records)
        #expect(report.stats.attPDUs == [0x02: 1, 0x03: 1, 0x0A: 1, 0x0B: 1])
        #expect(report.stats.issues.isEmpty)
        #expect(report.failures.map(\.kind) == [])
        #expect(report.connections.count == 1)
        let connection = report.connections.first
        #expect(connection?.mtu == 247)
        #expect(connection?.disconnectReason == HCIStatus(rawValue: 0x13))
        #expect(connection?.transactions.map(\.outcome) == [.ok, .ok])
        #expect(connection?.transactions.last?.value == [0x42, 0x43, 0x44])
        #expect(report.devices.first?.identity?.value == peripheralIdentity.description)
    }

    /// The nRF Sniffer with the key writes decrypted PDUs with flags encrypted + MIC OK, the
    /// MIC removed and Length reduced (packet-nordic_ble.c): nothing more is cut off.
    @Test func nordicDecryptedPDUsDecodeWhole() {
        Self.expectWhole(Self.encryptedLink(.nordic, flags: .decrypted))
    }

    /// A sniffer that leaves the MIC after the plaintext (RF pseudo-header, decrypted flag)
    /// counts it in Length: it is split off.
    @Test func decryptedPDUsWithTheirMICDecodeWhole() {
        Self.expectWhole(Self.encryptedLink(.phdr, flags: .decrypted))
    }

    /// Without the key the nRF Sniffer flags the PDU encrypted with a failed MIC check and
    /// writes the ciphertext and MIC: reported encrypted and not decrypted, nothing decoded.
    @Test func nordicEncryptedNotDecryptedIsSaidSo() {
        let s = Self.encryptedLink(.nordic, flags: .encrypted)
        var decoder = PacketDecoder()
        let packets = s.records.map { decoder.decode($0) }
        let read = packets[6]   // the Read Request, as ciphertext
        #expect(read.air?.flags.contains(.encrypted) == true && read.air?.flags.contains(.notDecrypted) == true)
        #expect(read.l2cap.isEmpty)
        let (report, _) = analyze(s.records)
        #expect(report.stats.attPDUs == [0x02: 1, 0x03: 1])
        #expect(report.connections.first?.disconnectReason == nil)
    }
}
