import AnalyzerTestSupport
import Foundation
import Testing

/// The light controller and battery monitor samples end to end (`verify`), and a second profile
/// for one device said on standard error.
@Suite(.serialized)
struct SampleProtocolCommandTests {
    @Test func verifyTheLightController() throws {
        let run = try CLI.run(["verify", "Samples/light-controller.btsnoop", "--profile", "Samples/profiles/light-controller.yaml"])
        #expect(run.status == 1)
        #expect(run.stdout.hasSuffix("""
            vendor-malformed-frame  malformed vendor frame on handle 0x0006: incomplete frame: frames never span ATT values (framing.spansValues) (3a263103)
            vendor-crc-mismatch  response SET_COLOR (0xB1): checksum does not verify
            2 vendor failure(s)

            """))
        #expect(run.stderr == "")
    }

    @Test func verifyTheBatteryMonitor() throws {
        let run = try CLI.run(["verify", "Samples/battery-monitor.btsnoop", "--profile", "Samples/profiles/battery-monitor.yaml"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("D1      C1          device-to-host  0x0006  6       5       1        0          0           0       1"))
        #expect(run.stdout.hasSuffix("1 vendor failure(s)\n"))
    }

    /// Two profiles matching the light's advertising: the first given decodes it, a warning says so.
    @Test func aSecondProfileForOneDeviceIsSaid() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("light-v2-\(getpid()).yaml").path
        let text = try String(contentsOfFile: "Samples/profiles/light-controller.yaml", encoding: .utf8)
            .replacingOccurrences(of: "profile: light-controller", with: "profile: light-v2")
        try text.write(toFile: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let run = try CLI.run(["verify", "Samples/light-controller.btsnoop", "--profile", "Samples/profiles/light-controller.yaml",
                               "--profile", copy])
        #expect(run.stderr.components(separatedBy: "\n").filter { $0.contains("all match") } == [
            "bledecode: warning: Samples/light-controller.btsnoop: profiles 'light-controller', 'light-v2' all match the advertising "
                + "of \"LIGHT-203C\": 'light-controller' decodes it, as it was given first (merge them, or narrow the others' match)"])
        #expect(run.stdout.hasSuffix("2 vendor failure(s)\n"))
    }
}
