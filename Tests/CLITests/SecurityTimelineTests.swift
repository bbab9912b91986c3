import AnalyzerTestSupport
import BLEBase
import Foundation
import Testing

/// Pairing, encryption and notices on the terminal timeline, from a capture the scenario builder
/// writes: exact lines.
@Suite(.serialized)
struct SecurityTimelineTests {
    static let lock = SampleScenarios.lockA

    /// The device asks for security, the host pairs (legacy passkey), encryption starts, a
    /// vendor command is probed and refused, and the host disconnects without the completion
    /// being captured.
    static func write() throws -> String {
        var s = HCIScenario()
        s.command(0xFD57, [0x01])
        s.commandComplete(0xFD57, status: 0x01)
        s.createConnection(to: lock, random: true, intervalUnits: 24)
        s.connectionComplete(handle: 0x0040, peer: lock, random: true, intervalUnits: 24)
        s.l2cap(handle: 0x0040, .received, cid: 0x0006, [0x0B, 0x05])
        s.l2cap(handle: 0x0040, .sent, cid: 0x0006, [0x01, 0x04, 0x00, 0x05, 0x10, 0x01, 0x01])
        s.l2cap(handle: 0x0040, .received, cid: 0x0006, [0x02, 0x00, 0x00, 0x05, 0x10, 0x01, 0x01])
        s.wait(ms: 7000)
        s.event(0x08, [0x00, 0x40, 0x00, 0x01])
        s.l2cap(handle: 0x0040, .received, cid: 0x0006, [0x07, 0x34, 0x12] + [UInt8](repeating: 0x22, count: 8))
        s.wait(ms: 500)
        s.disconnectCommand(handle: 0x0040)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-security-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func pairingAndEncryptionLinesAndInfoOnlyWithVerbose() throws {
        let path = try Self.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try CLI.run([path])
        #expect(plain.status == 0)
        let lines = plain.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("    +0.007250  C1    Security Request from the device (bonding, MITM): answered by pairing"))
        #expect(lines.contains("    +0.008500  C1    pairing started by the host: legacy, passkey entry, bonding (IO KeyboardDisplay / "
                               + "DisplayOnly); done in 7.01 s, keys: initiator EncKey, responder EncKey"))
        #expect(lines.contains("    +7.012250  C1    encryption started"))
        #expect(lines.contains("    +7.514750  C1    disconnected after 7.51 s, by the host (disconnect requested, not captured)"))
        // Info (housekeeping) only with -v; the closing line counts it.
        #expect(!plain.stdout.contains("hci-vendor-command-unsupported"))
        #expect(!plain.stdout.contains("disconnect-not-captured:"))
        #expect(lines.last == "1 device, 1 connection, 0 failures; 2 info (-v shows them)")
        let verbose = try CLI.run([path, "-v"])
        #expect(verbose.stdout.contains("      hci-vendor-command-unsupported: Vendor Command (OCF 0x0157) failed: Unknown HCI "
                                        + "Command (0x01), answered by Command Complete (the controller does not know this vendor command)"))
        #expect(verbose.stdout.contains("C1    disconnect-not-captured: Disconnect requested by the host (accepted), its completion "
                                        + "not captured before the end"))
        // The JSON report has the pairing and the notices.
        let json = try CLI.run([path, "--json"])
        #expect(try ReportCommandTests.validate(json.stdout) == [])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let connection = (object?["connections"] as? [[String: Any]])?.first
        let security = connection?["security"] as? [String: Any]
        let pairing = (security?["pairings"] as? [[String: Any]])?.first
        #expect(pairing?["method"] as? String == "passkey-entry")
        #expect(pairing?["result"] as? String == "success")
        #expect(pairing?["durationUs"] as? Int == 7_005_000)
        #expect((security?["encryption"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["start"])
        #expect(connection?["endInferred"] as? String == "disconnect requested, not captured")
        #expect((object?["notices"] as? [[String: Any]])?.map { $0["kind"] as? String }
                == ["hci-vendor-command-unsupported", "disconnect-not-captured"])
        #expect((object?["failures"] as? [[String: Any]])?.isEmpty == true)
    }
}

/// A vendor command left unanswered on a link still up at the end: the capture stopped first,
/// a warning; unanswered before the next command, a failure.
@Suite(.serialized)
struct VendorSeverityTests {
    @Test(arguments: [(false, "warning"), (true, "failure")])
    func unansweredAtTheEnd(nextCommand: Bool, severity: String) throws {
        var s = SampleScenarios.lockASubscribed()
        let write = GATTServerModel.demoLock.characteristic(0xFFE1)!.valueHandle
        s.writeRequest(handle: 0x0040, attribute: write, value: DemoLockFrame.encode(command: 0x01, sequence: 1, plaintext: []))
        if nextCommand {
            s.wait(ms: 500)
            s.writeRequest(handle: 0x0040, attribute: write, value: DemoLockFrame.encode(command: 0x01, sequence: 2, plaintext: []))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-vendor-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let findings = (object?["failures"] as? [[String: Any]] ?? []) + (object?["notices"] as? [[String: Any]] ?? [])
        let first = findings.first { $0["kind"] as? String == "vendor-no-response" }
        #expect(first?["severity"] as? String == severity)
    }
}

/// A background attempt cancelled after a long wait: one yellow line, not two.
@Suite(.serialized)
struct BackgroundAttemptTimelineTests {
    @Test func longCancelledBackgroundAttemptIsOneWarningLine() throws {
        var s = HCIScenario()
        var parameters: [UInt8] = [0x60, 0x00, 0x30, 0x00, 0x01, 0x00] + [UInt8](repeating: 0, count: 6)
        parameters += [0x00, 0x18, 0x00, 0x18, 0x00, 0x00, 0x00, 0x90, 0x01, 0x00, 0x00, 0x00, 0x00]
        s.command(HCIScenario.leCreateConnection, parameters)
        s.commandStatus(HCIScenario.leCreateConnection)
        s.wait(ms: 61_000)
        s.command(HCIScenario.leCreateConnectionCancel)
        s.commandComplete(HCIScenario.leCreateConnectionCancel)
        s.connectionComplete(handle: 0, peer: BluetoothAddress(value: 0), random: false, intervalUnits: 0, status: 0x02)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-bg-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path])
        #expect(run.stdout.contains("   +61.005000      ! connection-attempt-cancelled: Background connection attempt "
                                    + "(filter accept list) cancelled after 61 s without a connection\n"))
        #expect(!run.stdout.contains("connection attempt cancelled by the host"))
    }
}
