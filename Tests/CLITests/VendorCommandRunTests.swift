import AnalyzerTestSupport
import BLEBase
import CaptureFormats
import Foundation
@testable import Reports
import Sessions
import Testing

/// Long runs of vendor commands that went well: their ends listed, one line for the middle, so
/// the timeline's memory does not grow with every command.
@Suite(.serialized)
struct VendorCommandRunTests {
    static func command(_ n: Int, outcome: VendorCommandEvent.Outcome = .ok) -> VendorCommand {
        VendorCommand(timeUs: Int64(n) * 1_000_000, record: n * 10, connection: "C1", device: "D1",
                      name: n % 2 == 0 ? .init(command: 0x10, commandName: "UNLOCK") : .init(command: 0x11, commandName: "LOCK"),
                      sequence: n, outcome: outcome, latencyUs: outcome == .ok ? Int64(40_000 + n * 1_000) : nil, problem: nil)
    }

    /// Takes commands 1…`count` (failed past the cap where `unlisted` says) and closes the run.
    static func listed(_ count: Int, unlisted: Set<Int> = []) -> [VendorCommandEvent] {
        var run = VendorCommandRun()
        var list: [VendorCommandEvent] = []
        for n in 1...count {
            let failed = unlisted.contains(n)
            run.take(command(n, outcome: failed ? .crcMismatch : .ok), listed: !failed, into: &list)
        }
        run.close(into: &list)
        return list
    }

    @Test(arguments: 1...10)
    func runsOfUpToTenAreListedWhole(count: Int) {
        let list = Self.listed(count)
        #expect(list.map(\.record) == (1...count).map { $0 * 10 })
        #expect(list.allSatisfy { $0.run == nil })
    }

    @Test func aLongerRunShowsThreeAtEachEndAndOneLineForTheRest() throws {
        let list = Self.listed(11)
        #expect(list.map(\.record) == [10, 20, 30, 40, 90, 100, 110])
        #expect(list[0].summary == "LOCK (0x11) seq 0x01 ok in 41 ms" && list[0].name == "LOCK (0x11)" && list[0].deviceID == "D1")
        #expect(list[6].summary == "LOCK (0x11) seq 0x0B ok in 51 ms")
        let middle = list[3]
        #expect(middle.timeUs == 4_000_000 && middle.outcome == .ok && middle.latencyUs == nil)
        #expect(middle.summary == "5 more commands over 4 s: 5 ok in 44–48 ms (UNLOCK (0x10) ×3, LOCK (0x11) ×2)")
        let run = try #require(middle.run)
        #expect(run.endUs == 8_000_000 && run.count == 5 && run.failed == 0)

        let long = Self.listed(1_000)
        #expect(long.count == 7)
        #expect(long[3].summary == "994 more commands over 993 s: 994 ok in 44–1037 ms (UNLOCK (0x10) ×497, LOCK (0x11) ×497)")
        #expect(long.suffix(3).map(\.record) == [9_980, 9_990, 10_000])
    }

    @Test func aFailedCommandPastTheCapIsCountedInTheSummaryAndEndsItsLastCommands() throws {
        // 1–3 listed; 4–6 were the run's last commands until 7 failed unlisted: the summary takes
        // 4–7, and 8–9 are the last ones.
        let list = Self.listed(9, unlisted: [7])
        #expect(list.map(\.record) == [10, 20, 30, 40, 80, 90])
        #expect(list[3].summary == "4 more commands over 3 s: 3 ok in 44–46 ms (UNLOCK (0x10) ×2, LOCK (0x11) ×1); "
                + "1 failed, not listed past 1000 per kind (vendor-crc-mismatch 1)")
        #expect(list[3].run?.failed == 1)
        let event = Timeline.vendorEvent(list[3])
        #expect(event.severity == .error && event.failureKind == nil && event.endUs == 7_000_000)
        #expect(event.text.hasPrefix("vendor 4 more commands over 3 s: "))
    }

    /// A lock session of 30 commands, the 15th refused: the failure splits it in two runs.
    @Test func aCaptureTimelineSummarizesEachRunAroundAFailure() throws {
        let path = try Self.writeLockSession(commands: 30, failing: 15)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(run.status == 0)
        let vendor = run.stdout.split(separator: "\n").filter { $0.contains("C1  ") && $0.contains(" vendor") }.map {
            String($0.drop { $0 == " " || $0 == "+" || $0.isNumber || $0 == "." })
        }
        #expect(vendor == [
            "C1    vendor GET_INFO (0x01) seq 0x01 ok in 73 ms",
            "C1    vendor UNLOCK (0x10) seq 0x02 ok in 73 ms",
            "C1    vendor GET_INFO (0x01) seq 0x03 ok in 73 ms",
            "C1    vendor 8 more commands over 997 ms: 8 ok in 73 ms (UNLOCK (0x10) ×4, GET_INFO (0x01) ×4)",
            "C1    vendor UNLOCK (0x10) seq 0x0C ok in 73 ms",
            "C1    vendor GET_INFO (0x01) seq 0x0D ok in 73 ms",
            "C1    vendor UNLOCK (0x10) seq 0x0E ok in 73 ms",
            "C1  ✗ vendor-status-failure: response LOCK (0x91) seq 15: status 0x03 says the command failed",
            "C1    vendor UNLOCK (0x10) seq 0x10 ok in 73 ms",
            "C1    vendor GET_INFO (0x01) seq 0x11 ok in 73 ms",
            "C1    vendor UNLOCK (0x10) seq 0x12 ok in 73 ms",
            "C1    vendor 9 more commands over 1.14 s: 9 ok in 73 ms (GET_INFO (0x01) ×5, UNLOCK (0x10) ×4)",
            "C1    vendor UNLOCK (0x10) seq 0x1C ok in 73 ms",
            "C1    vendor GET_INFO (0x01) seq 0x1D ok in 73 ms",
            "C1    vendor UNLOCK (0x10) seq 0x1E ok in 73 ms",
        ])
        // Summaries are normal lines: asking for failures leaves them out.
        let failures = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml", "--only-failures"])
        #expect(!failures.stdout.contains("more commands"))
        #expect(failures.stdout.contains("vendor-status-failure: response LOCK (0x91) seq 15"))
    }

    /// 5,001 commands: the timeline still has 15 vendor lines, and the JSON report, which lists
    /// 10,000 vendor frames, says on standard error that it stopped there.
    @Test func aSoakSessionKeepsTheTimelineShortAndTheJSONSaysWhereItsListingStops() throws {
        let path = try Self.writeLockSession(commands: 5_001, failing: 2_500)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timeline = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(timeline.status == 0 && timeline.stderr == "")
        let vendor = timeline.stdout.split(separator: "\n").filter { $0.contains("C1  ") && $0.contains(" vendor") }
        #expect(vendor.count == 15)
        #expect(vendor[3].hasSuffix("vendor 2493 more commands over 355 s: 2493 ok in 73 ms (UNLOCK (0x10) ×1247, GET_INFO (0x01) ×1246)"))
        let json = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml", "--json"])
        #expect(json.status == 0)
        #expect(json.stderr.hasSuffix(": more than 10000 vendor frames: past that, only failed frames are listed, "
                                      + "at most 1000 of them (totals stay complete)\n"))
    }

    /// Lock A connected, discovered and its notifications on, then `commands` commands (GET_INFO and UNLOCK
    /// by turns, sequence numbers from 1), the one at `failing` a LOCK refused with status 0x03.
    static func writeLockSession(commands: Int, failing: Int) throws -> String {
        var s = HCIScenario()
        let lock = GATTServerModel.demoLock
        let write = lock.characteristic(0xFFE1)!.valueHandle
        let notify = lock.characteristic(0xFFE2)!
        let lockA = SampleScenarios.lockA
        s.advertisingReport(lockA, random: true, data: SampleScenarios.lockAdvertisement(
            name: "LOCK-A101", mac: SampleScenarios.lockAFactoryMAC, battery: 87), rssi: -60)
        s.createConnection(to: lockA, random: true, intervalUnits: 24)
        s.wait(ms: 40)
        s.connectionComplete(handle: 0x0040, peer: lockA, random: true, intervalUnits: 24)
        s.discover(handle: 0x0040, model: lock)
        s.writeRequest(handle: 0x0040, attribute: notify.cccdHandle!, value: [0x01, 0x00])
        for n in 1...commands {
            let refused = n == failing
            s.vendorCommand(handle: 0x0040, write: write, notify: notify.valueHandle,
                            command: refused ? 0x11 : n % 2 == 0 ? 0x10 : 0x01, sequence: UInt8(truncatingIfNeeded: n),
                            request: [], response: [refused ? 0x03 : 0x00], mtu: 23)
        }
        s.disconnectCommand(handle: 0x0040, reason: 0x13)
        s.disconnectionComplete(handle: 0x0040, reason: 0x16)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-run-\(UUID().uuidString).btsnoop").path
        try Data(CaptureWriter.btsnoop(s.records)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
