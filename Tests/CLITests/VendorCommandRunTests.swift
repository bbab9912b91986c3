@testable import BLEAnalysis
import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
@testable import BLEReports
import BLESessions
import Testing

/// Long runs of vendor commands that went well: their ends listed, one line for the middle, so
/// the timeline's memory does not grow with every command.
@Suite(.serialized)
struct VendorCommandRunTests {
    static func command(_ n: Int, outcome: VendorCommandEvent.Outcome = .ok) -> VendorCommand {
        VendorCommand(timeUs: Int64(n) * 1_000_000, record: n * 10, connection: ConnectionID(number: 1), device: DeviceID(number: 1),
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

    @Test(arguments: 1...19)
    func runsOfUpToNineteenAreListedWhole(count: Int) {
        let list = Self.listed(count)
        #expect(list.map(\.record) == (1...count).map { $0 * 10 })
        #expect(list.allSatisfy { $0.run == nil })
    }

    @Test func aLongerRunShowsFiveAtEachEndAndOneLineForTheRest() throws {
        let list = Self.listed(20)
        #expect(list.map(\.record) == [10, 20, 30, 40, 50, 60, 160, 170, 180, 190, 200])
        #expect(list[0].summary == "LOCK (0x11) seq 0x01 ok in 41 ms" && list[0].name == "LOCK (0x11)" && list[0].deviceID == DeviceID(number: 1))
        #expect(list[10].summary == "UNLOCK (0x10) seq 0x14 ok in 60 ms")
        let middle = list[5]
        #expect(middle.timeUs == 6_000_000 && middle.outcome == .ok && middle.latencyUs == nil)
        #expect(middle.summary == "10 more commands over 9 s: 10 ok in 46–55 ms (UNLOCK (0x10) ×5, LOCK (0x11) ×5)")
        let run = try #require(middle.run)
        #expect(run.endUs == 15_000_000 && run.count == 10 && run.failed == 0)

        let long = Self.listed(1_000)
        #expect(long.count == 11)
        #expect(long[5].summary == "990 more commands over 989 s: 990 ok in 46–1035 ms (UNLOCK (0x10) ×495, LOCK (0x11) ×495)")
        #expect(long.suffix(5).map(\.record) == [9_960, 9_970, 9_980, 9_990, 10_000])
    }

    /// Each outcome's line, made from the command's parts when it is read.
    @Test(arguments: [
        (VendorCommandEvent.Outcome.ok, Int64?(53_000), String?.none, "GET_INFO (0x01) seq 0x07 ok in 53 ms"),
        (.ok, nil, nil, "GET_INFO (0x01) seq 0x07 ok"),
        (.failed, nil, "status 0x03", "GET_INFO (0x01) seq 0x07 failed: status 0x03"),
        (.failed, nil, nil, "GET_INFO (0x01) seq 0x07 failed"),
        (.noResponse, nil, nil, "GET_INFO (0x01) seq 0x07 got no response"),
        (.crcMismatch, nil, nil, "GET_INFO (0x01) seq 0x07: checksum mismatch"),
        (.malformed, nil, "2 bytes, shorter than the header", "GET_INFO (0x01) seq 0x07: malformed (2 bytes, shorter than the header)"),
        (.unsolicited, nil, nil, "GET_INFO (0x01) seq 0x07: unsolicited"),
    ])
    func eachOutcomeHasItsLine(outcome: VendorCommandEvent.Outcome, latencyUs: Int64?, problem: String?, line: String) {
        var event = VendorCommandEvent(timeUs: 0, record: 1, connectionID: ConnectionID(number: 1), deviceID: nil, name: "GET_INFO (0x01)",
                                       outcome: outcome, sequence: 7, latencyUs: latencyUs, problem: problem)
        #expect(event.summary == line)
        event.sequence = nil
        #expect(event.summary == line.replacingOccurrences(of: " seq 0x07", with: ""))
    }

    @Test func aFailedCommandPastTheCapIsCountedInTheSummaryAndEndsItsLastCommands() throws {
        // 1–5 listed; 6–8 were the run's last commands until 9 failed unlisted: the summary takes
        // 6–9, and 10–12 are the last ones.
        let list = Self.listed(12, unlisted: [9])
        #expect(list.map(\.record) == [10, 20, 30, 40, 50, 60, 100, 110, 120])
        #expect(list[5].summary == "4 more commands over 3 s: 3 ok in 46–48 ms (UNLOCK (0x10) ×2, LOCK (0x11) ×1); "
                + "1 failed, not listed past 1000 per kind (vendor-crc-mismatch 1)")
        #expect(list[5].run?.failed == 1)
        let event = Timeline.vendorEvent(list[5])
        #expect(event.severity == .error && event.failureKind == nil && event.endUs == 9_000_000)
        #expect(event.text.hasPrefix("vendor 4 more commands over 3 s: "))
    }

    /// A lock session of 60 commands, the 30th refused: the failure splits it in two runs.
    @Test func aCaptureTimelineSummarizesEachRunAroundAFailure() throws {
        let path = try Self.writeLockSession(commands: 60, failing: 30)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(run.status == 0)
        let vendor = run.stdout.split(separator: "\n").filter { $0.contains("C1  ") && $0.contains(" vendor") }.map {
            String($0.drop { $0 == " " || $0 == "+" || $0.isNumber || $0 == "." })
        }
        func listed(_ sequences: ClosedRange<Int>) -> [String] {
            sequences.map { "C1    vendor " + ($0 % 2 == 0 ? "UNLOCK (0x10)" : "GET_INFO (0x01)") + " seq \(Hex.code(UInt8($0))) ok in 73 ms" }
        }
        #expect(vendor == listed(1...5)
                + ["C1    vendor 19 more commands over 2.57 s: 19 ok in 73 ms (UNLOCK (0x10) ×10, GET_INFO (0x01) ×9)"]
                + listed(25...29)
                + ["C1  ✗ vendor-status-failure: response LOCK (0x91) seq 0x1E: status 0x03 says the command failed"]
                + listed(31...35)
                + ["C1    vendor 20 more commands over 2.71 s: 20 ok in 73 ms (UNLOCK (0x10) ×10, GET_INFO (0x01) ×10)"]
                + listed(56...60))
        // Summaries are normal lines: asking for failures leaves them out.
        let failures = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml", "--only-failures"])
        #expect(!failures.stdout.contains("more commands"))
        #expect(failures.stdout.contains("vendor-status-failure: response LOCK (0x91) seq 0x1E"))
    }

    /// 5,001 commands: the timeline still has 23 vendor lines, and the JSON report, which lists
    /// 10,000 vendor frames, says on standard error that it stopped there.
    @Test func aSoakSessionKeepsTheTimelineShortAndTheJSONSaysWhereItsListingStops() throws {
        let path = try Self.writeLockSession(commands: 5_001, failing: 2_500)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timeline = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(timeline.status == 0 && timeline.stderr == "")
        let vendor = timeline.stdout.split(separator: "\n").filter { $0.contains("C1  ") && $0.contains(" vendor") }
        #expect(vendor.count == 23)
        #expect(vendor[5].hasSuffix("vendor 2489 more commands over 354 s: 2489 ok in 73 ms (UNLOCK (0x10) ×1245, GET_INFO (0x01) ×1244)"))
        let json = try CLI.run([path, "--profile", "Samples/profiles/demo-lock.yaml", "--json"])
        #expect(json.status == 0)
        #expect(json.stderr.hasSuffix(": more than 10000 vendor frames: past that, only failed frames are listed, "
                                      + "at most 1000 of them (totals stay complete)\n"))
    }

    /// Lock A connected, discovered and its notifications on, then `commands` commands (GET_INFO and UNLOCK
    /// by turns, sequence numbers from 1), the one at `failing` a LOCK refused with status 0x03.
    static func writeLockSession(commands: Int, failing: Int) throws -> String {
        var s = SampleScenarios.lockASubscribed()
        let lock = GATTServerModel.demoLock
        let write = lock.characteristic(0xFFE1)!.valueHandle
        let notify = lock.characteristic(0xFFE2)!
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
