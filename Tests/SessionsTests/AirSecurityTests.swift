import BLEBase
import BLECaptureFormats
import BLELinkLayer
import BLESessions
import Testing

/// Encryption from the link layer in an air capture (Core v5.4 Vol 6 Part B §5.1.3): raw link
/// type 251 packets on a connection a CONNECT_IND opens.
struct AirSecurityTests {
    /// CONNECT_IND: AA 0x552B82F6, CRCInit 0xE5446D, interval 30 ms, timeout 4 s.
    static let connectInd: [UInt8] = [
        0xD6, 0xBE, 0x89, 0x8E, 0x85, 0x22, 0x20, 0x44, 0xDA, 0x7D, 0x1A, 0x00, 0xDD, 0xC7, 0x0E, 0xF9, 0x30, 0x6B,
        0xF6, 0x82, 0x2B, 0x55, 0x6D, 0x44, 0xE5, 0x02, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x90, 0x01,
        0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x25,
    ]

    /// Two link layers' SN/NESN (§4.5.9), every packet received.
    struct Sequence {
        var central = (sn: false, nesn: false)
        var peripheral = (sn: false, nesn: false)
        mutating func send(fromCentral: Bool) -> (sn: Bool, nesn: Bool) {
            let bits = fromCentral ? central : peripheral
            var peer = fromCentral ? peripheral : central
            if bits.sn == peer.nesn { peer.nesn.toggle() }
            if bits.nesn != peer.sn { peer.sn.toggle() }
            if fromCentral { peripheral = peer } else { central = peer }
            return bits
        }
    }

    struct Air {
        var records: [CaptureRecord] = []
        var time: Int64 = 1_000_000
        var sequence = Sequence()

        mutating func append(_ bytes: [UInt8], after gap: Int64) {
            time += gap
            records.append(CaptureRecord(index: records.count + 1, timestampUs: time, direction: .unknown,
                                         kind: .linkLayer(linkType: 251), payload: bytes, originalLength: nil))
        }

        /// A data PDU with a correct CRC: the central's an interval after the last, the
        /// peripheral's 300 µs after the central's (direction inferred from timing).
        mutating func data(fromCentral: Bool, llid: UInt8, _ payload: [UInt8]) {
            let bits = sequence.send(fromCentral: fromCentral)
            let pdu = [llid | (bits.nesn ? 0x04 : 0) | (bits.sn ? 0x08 : 0), UInt8(payload.count)] + payload
            let crc = CRC24.wireValue(pdu, initial: 0xE5_446D)
            append([0xF6, 0x82, 0x2B, 0x55] + pdu + [0, 8, 16].map { UInt8(truncatingIfNeeded: crc >> $0) },
                   after: fromCentral ? (records.count == 1 ? 2_000 : 29_700) : 300)
        }
    }

    /// The central asks to encrypt (LL_ENC_REQ); the peripheral's host has no key: LL_REJECT_EXT_IND
    /// with 0x06 PIN or Key Missing is an encryption failure on that link.
    @Test func rejectedEncryptionRequestIsAFailure() {
        var air = Air()
        air.append(Self.connectInd, after: 0)
        air.data(fromCentral: true, llid: 1, [])
        air.data(fromCentral: false, llid: 1, [])
        air.data(fromCentral: true, llid: 3, [0x03] + [UInt8](repeating: 0x11, count: 22))
        air.data(fromCentral: false, llid: 3, [0x11, 0x03, 0x06])
        air.data(fromCentral: true, llid: 1, [])
        air.data(fromCentral: false, llid: 1, [])
        let report = analyze(air.records).report
        #expect(report.failures.map(\.kind) == [.encryptionFailed])
        #expect(report.failures.first?.summary.hasPrefix("Encryption failed to start: PIN or Key Missing (0x06)") == true)
        let encryption = report.connections.first?.security.encryption ?? []
        #expect(encryption.map(\.source) == ["link-layer"] && encryption.map(\.status) == [0x06])
        #expect(report.connections.first?.encrypted == false)
    }
}
