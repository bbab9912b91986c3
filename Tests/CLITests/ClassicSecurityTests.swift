import AnalyzerTestSupport
import BLEBase
import Foundation
import Testing

/// BR/EDR pairing and authentication from HCI (Core v5.4 Vol 4 Part E §7.1.10–7.1.36, §7.7.6,
/// §7.7.8, §7.7.22–24, §7.7.40–45): the report's `security` and the timeline, exact.
@Suite(.serialized)
struct ClassicSecurityTests {
    static let peer = BluetoothAddress("00:1B:DC:07:32:11")!
    static let handle: UInt16 = 0x000B

    static func write(_ s: HCIScenario) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-classic-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The connection's `security` and the failures' kinds and summaries, as sorted JSON.
    static func run(_ s: HCIScenario) throws -> (security: String, failures: [String], timeline: [String]) {
        let path = try write(s)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let json = try CLI.run([path, "--json"])
        #expect(try ReportCommandTests.validate(json.stdout) == [])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let connection = (object?["connections"] as? [[String: Any]])?.first
        let security = try JSONSerialization.data(withJSONObject: connection?["security"] ?? [:], options: .sortedKeys)
        let failures = (object?["failures"] as? [[String: Any]] ?? []).map { "\($0["kind"] ?? ""): \($0["summary"] ?? "")" }
        let timeline = try CLI.run([path]).stdout.split(separator: "\n").map(String.init)
        return (String(decoding: security, as: UTF8.self), failures, timeline)
    }

    static func connected() -> HCIScenario {
        var s = HCIScenario()
        s.classicConnectionComplete(handle: handle, peer: peer)
        return s
    }

    /// The host authenticates a link it has no key for: Secure Simple Pairing, both sides
    /// DisplayYesNo with MITM (numeric comparison, §5.2.2.6 Vol 3 Part C), a P-256 authenticated
    /// key (Secure Connections), then encryption.
    @Test func sspNumericComparison() throws {
        var s = Self.connected()
        s.authenticationRequested(handle: Self.handle)
        s.linkKeyRequest(peer: Self.peer, hostHasKey: false)
        s.ioCapabilities(peer: Self.peer, local: (0x01, 0x00, 0x05), remote: (0x01, 0x00, 0x05), localFirst: true)
        s.userConfirmation(peer: Self.peer, value: 123_456)
        s.wait(ms: 2000)
        s.simplePairingComplete(peer: Self.peer)
        s.linkKeyNotification(peer: Self.peer, keyType: 0x07)
        s.authenticationComplete(handle: Self.handle)
        s.setConnectionEncryption(handle: Self.handle)
        let (security, failures, timeline) = try Self.run(s)
        #expect(security == #"{"encryption":[{"keySize":null,"kind":"start","record":19,"source":"hci","status":0,"statusName":"Success","timeUs":1714033434022500}],"pairings":[{"bonding":true,"durationUs":2008750,"endUs":1714033434016250,"failedBy":null,"initiator":"local","initiatorIoCapability":"DisplayYesNo","initiatorKeys":[],"keySize":null,"method":"numeric-comparison","mitm":true,"reasonCode":null,"reasonName":null,"record":7,"responderIoCapability":"DisplayYesNo","responderKeys":[],"result":"success","secureConnections":true,"startUs":1714033432007500}],"securityRequests":[]}"#)
        #expect(failures == [])
        #expect(timeline.contains("    +0.007500  C1    pairing started by the host: Secure Connections, numeric comparison, bonding "
                                  + "(IO DisplayYesNo / DisplayYesNo); done in 2.01 s"))
        #expect(timeline.contains("    +2.022500  C1    encryption started"))
    }

    /// The host has no link key (Link Key Request Negative Reply) and the authentication fails
    /// with 0x06 PIN or Key Missing: the bond was lost on the host's side. No pairing ran.
    @Test func linkKeyRefusedThenKeyMissing() throws {
        var s = Self.connected()
        s.authenticationRequested(handle: Self.handle)
        s.linkKeyRequest(peer: Self.peer, hostHasKey: false)
        s.authenticationComplete(handle: Self.handle, status: 0x06)
        let (security, failures, timeline) = try Self.run(s)
        #expect(security == #"{"encryption":[],"pairings":[],"securityRequests":[]}"#)
        let summary = "BR/EDR authentication failed: PIN or Key Missing (0x06) after the host answered the Link Key Request "
            + "negatively: it has no link key for this device (the bond was lost on this side, or never made)"
        #expect(failures == ["pairing-failed: " + summary])
        #expect(timeline.contains("    +0.007500  C1  ✗ pairing-failed: " + summary))
    }

    /// The host gives its link key and the device has none: 0x06 says the device lost the bond.
    @Test func linkKeySentThenKeyMissing() throws {
        var s = Self.connected()
        s.authenticationRequested(handle: Self.handle)
        s.linkKeyRequest(peer: Self.peer, hostHasKey: true)
        s.authenticationComplete(handle: Self.handle, status: 0x06)
        let (_, failures, _) = try Self.run(s)
        #expect(failures == ["pairing-failed: BR/EDR authentication failed: PIN or Key Missing (0x06) after the host gave its "
                             + "link key: the device has none for the host (it lost the bond, e.g. after a reset)"])
    }

    /// The device starts legacy pairing: PIN Code Request, a combination key (type 0x00, not
    /// Secure Connections), Authentication Complete, encryption.
    @Test func legacyPin() throws {
        var s = Self.connected()
        s.linkKeyRequest(peer: Self.peer, hostHasKey: false)
        s.pinCode(peer: Self.peer, pin: "0000")
        s.wait(ms: 500)
        s.linkKeyNotification(peer: Self.peer, keyType: 0x00)
        s.authenticationComplete(handle: Self.handle)
        s.setConnectionEncryption(handle: Self.handle)
        let (security, failures, timeline) = try Self.run(s)
        #expect(security == #"{"encryption":[{"keySize":null,"kind":"start","record":12,"source":"hci","status":0,"statusName":"Success","timeUs":1714033432513750}],"pairings":[{"bonding":false,"durationUs":503750,"endUs":1714033432508750,"failedBy":null,"initiator":"remote","initiatorIoCapability":null,"initiatorKeys":[],"keySize":null,"method":"legacy-pin","mitm":false,"reasonCode":null,"reasonName":null,"record":5,"responderIoCapability":null,"responderKeys":[],"result":"success","secureConnections":false,"startUs":1714033432005000}],"securityRequests":[]}"#)
        #expect(failures == [])
        #expect(timeline.contains("    +0.005000  C1    pairing started by the device: legacy PIN code; done in 503 ms"))
        #expect(timeline.contains("    +0.513750  C1    encryption started"))
    }

    /// The device starts Secure Simple Pairing (its IO capabilities arrive first), KeyboardOnly
    /// against DisplayOnly (passkey entry), and it fails with 0x05 Authentication Failure: one
    /// failure, the Authentication Complete that repeats it is not another. Encryption then
    /// fails too (0x06), a failure of its own.
    @Test func sspFailureAndEncryptionFailure() throws {
        var s = Self.connected()
        s.ioCapabilities(peer: Self.peer, local: (0x00, 0x00, 0x05), remote: (0x02, 0x00, 0x05), localFirst: false)
        s.event(0x3B, Self.peer.wire + [0x40, 0xE2, 0x01, 0x00])
        s.wait(ms: 1000)
        s.simplePairingComplete(peer: Self.peer, status: 0x05)
        s.authenticationComplete(handle: Self.handle, status: 0x05)
        s.setConnectionEncryption(handle: Self.handle, status: 0x06)
        let (security, failures, _) = try Self.run(s)
        #expect(security == #"{"encryption":[{"keySize":null,"kind":"start","record":11,"source":"hci","status":6,"statusName":"PIN or Key Missing","timeUs":1714033433012500}],"pairings":[{"bonding":true,"durationUs":1006250,"endUs":1714033433007500,"failedBy":null,"initiator":"remote","initiatorIoCapability":"KeyboardOnly","initiatorKeys":[],"keySize":null,"method":"passkey-entry","mitm":true,"reasonCode":5,"reasonName":"Authentication Failure","record":2,"responderIoCapability":"DisplayOnly","responderKeys":[],"result":"failed","secureConnections":false,"startUs":1714033432001250}],"securityRequests":[]}"#)
        #expect(failures == [
            "pairing-failed: BR/EDR pairing failed: Authentication Failure (0x05) 1.0 s after it started (started by the device, passkey entry)",
            "encryption-failed: Encryption failed to start: PIN or Key Missing (0x06) (one side has no key for the other: the bond was "
                + "lost, e.g. after an app reinstall or a reset)",
        ])
    }
}
