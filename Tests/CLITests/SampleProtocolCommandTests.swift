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
            vendor-malformed-frame  C1  record 40  +0.720 s  malformed vendor frame on handle 0x0006: incomplete frame: frames never span ATT values (framing.spansValues) (3a263103)
            vendor-crc-mismatch  C2  record 84  +1.853 s  response SET_COLOR (0xB1): checksum does not verify (carries 0x55, computed 0x54)
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

    /// `infer-crc` on the samples' device frames: each has one corrupted frame and frames spanning
    /// notifications.
    @Test func inferTheSampleChecksums() throws {
        let light = try CLI.run(["infer-crc", "Samples/light-controller.btsnoop", "--handle", "0x0008", "--limit", "1"])
        #expect(light.status == 0)
        #expect(light.stdout == """
            1. sum8: check value at end-1 over bytes 0 to end-1: verifies 6 of 7; record 84 fails
               checksum:
                 algorithm: sum8
                 at: -1
                 range: {from: 0, to: -1}

            """)
        #expect(light.stderr == "bledecode: warning: 12 values on handle 0x0008 joined into 10 frames at the sync bytes 3a26 "
                + "(taken from the values; --sync to give them)\n")
        let battery = try CLI.run(["infer-crc", "Samples/battery-monitor.btsnoop", "--handle", "0x0006", "--sync", "2424", "--limit", "1"])
        #expect(battery.status == 0)
        #expect(battery.stdout.hasPrefix("1. sum16: check value at end-4 (little-endian) over bytes 2 to end-4: verifies 5 of 6; record 35 fails\n"))
        #expect(battery.stderr == "bledecode: warning: 8 values on handle 0x0006 joined into 6 frames at the sync bytes 2424\n")
    }

    @Test func partialFitsExitWithOne() throws {
        let frames = ["3a2610007000", "3a26710101d3", "3a267101003b", "3a26b1010012", "3a26b10400ff40005a", "3a26900100ff"]
        let run = try CLI.run(["infer-crc", "-", "--hex", "--limit", "2"], stdin: Data((frames.joined(separator: "\n") + "\n").utf8))
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix("no checksum fits all 6 frames (or all but 1); the best partial fits:\n1. "))
    }

    /// The treadmill's writes on handle 0x0011 are 20-byte pieces of frames up to 741 bytes:
    /// joined at `55 AA`, all 37 verify under CRC-16/IBM-3740 in the header.
    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func inferTheTreadmillCRCFromItsWrites() throws {
        let run = try CLI.run(["infer-crc", SharedCaptures.path("real/horizon74_btsnoop_hci.log"), "--handle", "0x0011", "--limit", "1"])
        #expect(run.status == 0)
        let section = SharedCaptures.horizonChecksumSection.split(separator: "\n").map { "   " + $0 + "\n" }.joined()
        #expect(run.stdout == "1. CRC-16/IBM-3740: check value at 8 (little-endian) over bytes 10 to end: verifies 37 of 37\n"
                + section)
        #expect(run.stderr.contains("260 values on handle 0x0011 joined into 37 frames at the sync bytes 55aa"))
    }
}
