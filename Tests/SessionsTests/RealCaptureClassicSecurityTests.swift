import AnalyzerTestSupport
import BLEBase
import BLESessions
import Testing

/// BR/EDR security on ../shared/captures/real/isap_hci_dump.pklg (BTstack, 2010): on each of two
/// links the peer authenticates, the host answers the Link Key Request with its stored key
/// (frames 73–75, 146–148 in tshark), and Encryption Change succeeds (frames 76, 149). No
/// pairing ran, so no pairing is listed, and nothing failed.
@Suite(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
struct RealCaptureClassicSecurityTests {
    @Test func isapStoredKeyThenEncryption() throws {
        let report = try analyzeFile(SharedCaptures.path("real/isap_hci_dump.pklg"))
        #expect(report.connections.map(\.transport) == [.brEdr, .brEdr])
        #expect(report.connections.map(\.security.pairings.count) == [0, 0])
        #expect(report.connections.map { $0.security.encryption.map(\.record) } == [[76], [149]])
        #expect(report.connections.allSatisfy { $0.security.encryption.allSatisfy { $0.kind == .start && $0.status == 0 } })
        #expect(report.connections.map(\.encrypted) == [true, true])
        #expect(report.failures.isEmpty)
    }
}
