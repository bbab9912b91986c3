import BLEBase
import BLEHCI
import Testing

/// The BR/EDR link events, decoded on demand from their undecoded bodies, and their one-line
/// summaries (Core v5.4 Vol 4 Part E §7.7.3, §7.7.6, §7.7.7, §7.7.18, §7.7.35).
@Suite struct ClassicLinkEventTests {
    func event(_ bytes: [UInt8]) throws -> HCIEventPacket {
        var r = ByteReader(bytes, layer: .hci)
        return try HCIEventPacket(parsing: &r)
    }

    /// isap_hci_dump.pklg record 33 (tshark: status 0x00, handle 0x002a, BD_ADDR
    /// 00:13:e0:49:b9:ca, link type 0x01, encryption 0x00).
    @Test func connectionComplete() throws {
        let e = try event([0x03, 0x0B, 0x00, 0x2A, 0x00, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x01, 0x00])
        #expect(e.summary == "Connection Complete handle 0x002A status Success peer 00:13:E0:49:B9:CA ACL encryption off")
        let sco = try event([0x03, 0x0B, 0x04, 0x2B, 0x00, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x00, 0x01])
        #expect(sco.summary == "Connection Complete handle 0x002B status Page Timeout (0x04) peer 00:13:E0:49:B9:CA SCO encryption on")
    }

    @Test func theOtherLinkEvents() throws {
        #expect(try event([0x06, 0x03, 0x05, 0x2A, 0x00]).summary
                == "Authentication Complete handle 0x002A status Authentication Failure (0x05)")
        #expect(try event([0x2C, 0x11, 0x00, 0x06, 0x01] + [UInt8](repeating: 0, count: 14)).summary
                == "Synchronous Connection Complete handle 0x0106 status Success")
        #expect(try event([0x12, 0x08, 0x00, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x01]).summary
                == "Role Change status Success peer 00:13:E0:49:B9:CA new role peripheral")
        // A name with an escape byte: quoted and escaped, cut at its zero byte.
        #expect(try event([0x07, 0x0C, 0x00, 0xCA, 0xB9, 0x49, 0xE0, 0x13, 0x00, 0x4B, 0x1B, 0x62, 0x00, 0x7A]).summary
                == "Remote Name Request Complete status Success peer 00:13:E0:49:B9:CA name \"K\\x1bb\"")
    }

    /// A body too short to be the event stays hex, as any undecoded event does.
    @Test func aTruncatedLinkEventStaysHex() throws {
        #expect(try event([0x03, 0x03, 0x00, 0x2A, 0x00]).summary == "Connection Complete 002a00")
    }
}
