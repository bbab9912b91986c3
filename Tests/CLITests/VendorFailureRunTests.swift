@testable import BLEAnalysis
import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
@testable import BLEReports
import Testing

/// A battery monitor polled once a second that never answers (its notifications never enabled):
/// one line per connection and kind in the timeline and the Markdown, with the true count past
/// any cap, and the usual cause said.
@Suite(.serialized)
struct VendorFailureRunTests {
    /// `polls` READ_VOLTAGE commands a second apart, none answered, then (when `answerLast`)
    /// one answered poll and three more unanswered ones.
    static func writePolls(_ polls: Int, answerLast: Bool) throws -> String {
        var s = HCIScenario()
        let model = SampleScenarios.batteryModel
        let notify = model.characteristic(0xFFF1)!.valueHandle
        let write = model.characteristic(0xFFF2)!.valueHandle
        let ad = HCIScenario.adStructure(0x01, [0x06]) + HCIScenario.adStructure(0x03, [0xF0, 0xFF])
            + HCIScenario.adStructure(0x09, Array("BATMON-0421".utf8))
        s.advertisingReport(SampleScenarios.batteryMonitor, random: true, data: ad, rssi: -60)
        s.createConnection(to: SampleScenarios.batteryMonitor, random: true, intervalUnits: 24)
        s.wait(ms: 30)
        s.connectionComplete(handle: 0x0040, peer: SampleScenarios.batteryMonitor, random: true, intervalUnits: 24)
        s.discover(handle: 0x0040, model: model)
        let poll = BatteryFrame.encode(fromHost: true, command: 0x01, payload: [])
        for _ in 0..<polls {
            s.writeCommand(handle: 0x0040, attribute: write, value: poll)
            s.wait(ms: 1000)
        }
        if answerLast {
            s.writeCommand(handle: 0x0040, attribute: write, value: poll)
            s.wait(ms: 40)
            s.notify(handle: 0x0040, attribute: notify, value: BatteryFrame.encode(fromHost: false, command: 0x01,
                                                                                   payload: [0x00, 0x32, 0x28]), mtu: 23)
            for _ in 0..<3 {
                s.wait(ms: 1000)
                s.writeCommand(handle: 0x0040, attribute: write, value: poll)
            }
        }
        s.wait(ms: 500)
        s.disconnectCommand(handle: 0x0040, reason: 0x13)
        s.disconnectionComplete(handle: 0x0040, reason: 0x16)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-polls-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let profile = "Samples/profiles/battery-monitor.yaml"

    @Test func pollsUnansweredAreOneLinePerConnectionAndKind() throws {
        let path = try Self.writePolls(30, answerLast: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--profile", Self.profile])
        let failures = run.stdout.split(separator: "\n").filter { $0.contains("  C1  ✗ vendor-no-response") }
        // 30 unanswered before the answered poll (each ended by the next: the monitor does not
        // queue), then 3 after it (the last at the link's end): too few for a line of their own.
        #expect(failures.count == 4)
        #expect(failures.first?.hasSuffix("vendor-no-response: 30 in a row over 29.07 s (READ_VOLTAGE (0x01) ×30); the first: "
            + "command READ_VOLTAGE (0x01) got no response before the next command, command READ_VOLTAGE (0x01) (the device "
            + "does not queue commands); the device-to-host characteristic was never subscribed on this connection before "
            + "(no CCCD write, no device frame in the capture), the usual cause") == true)
        #expect(failures.dropFirst().allSatisfy { !$0.contains("in a row") })
        let markdown = try CLI.run(["report", "--format", "markdown", path, "--profile", Self.profile])
        let rows = markdown.stdout.split(separator: "\n").filter { $0.contains("vendor-no-response") }
        #expect(rows.count == 4)
        #expect(rows.first?.hasPrefix("| +") == true && rows.first?.contains(" … +") == true)
        #expect(rows.first?.contains("| vendor-no-response | C1: 30 in a row over 29.07 s (READ\\_VOLTAGE (0x01) ×30); the first: ") == true)
    }

    /// Past the listing cap of 1,000 failures per kind the run still counts every one, and the
    /// lines of commands not listed are told by the run's line.
    @Test func aRunCountsPastTheListingCap() throws {
        let path = try Self.writePolls(1_200, answerLast: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--profile", Self.profile])
        let vendor = run.stdout.split(separator: "\n").filter { $0.contains("  C1  ") && $0.contains("vendor") }
        #expect(vendor.count == 1)
        #expect(run.stdout.contains("1200 failures: vendor-no-response 1200 (1000 listed: past 1000 of a kind, only counted)"))
        // The HTML lane: a red failure mark at the run's first failure and at its last, past the cap.
        let html = try CLI.run(["report", "--format", "html", path, "--profile", Self.profile])
        #expect(html.stdout.contains("C1 vendor-no-response: 1200 in a row over 1201 s"))
        #expect(html.stdout.contains("C1 last of the run: vendor-no-response: 1200 in a row over 1201 s"))
        #expect(vendor.first?.contains("vendor-no-response: 1200 in a row over 1201 s (READ_VOLTAGE (0x01) ×1200)") == true)
    }
}
