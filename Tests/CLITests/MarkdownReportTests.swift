import BLEAnalysis
import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
import BLEReports
import Testing

@Suite(.serialized)
struct MarkdownReportTests {
    @Test func equalsGolden() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--format", "markdown"])
        #expect(run.status == 0)
        try Golden.check(run.stdout, against: "report-demo-lock.md")
        #expect(run.stdout.hasSuffix("```\nbledecode Samples/demo-lock.btsnoop --format markdown\n```\n"))
    }

    /// Info notices are rows too (the header counts them), marked by their severity.
    @Test func infoNoticesAreListed() throws {
        let run = try CLI.run([SharedCaptures.path("real/garmin.pcapng"), "--format", "markdown"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("""
            ## Notices (1 warning, 2 info)

            | Time | Device | Kind | Severity | Summary | Count |
            | --- | --- | --- | --- | --- | --- |
            | +38.487321 | D1 "Edge 540" | att-answer-without-request | info | Error Response to Read By Group Type Request \
            (handle 0x002B: Attribute Not Found (0x0A)) from the peripheral answers no request the capture holds (sent \
            before the capture began, or not captured) | 1 |
            | +38.487670 | D1 "Edge 540" | att-answer-not-captured | info | Read By Group Type Request for the central's \
            handles from 0x0019: its answer was not captured (the next request shows it came; the sniffer missed it) | 1 |
            | +43.109343 | D1 "Edge 540" | att-no-response | warning | Write Request to CCCD of
            """))
    }

    /// A link still up when the capture ended (fossibot's C6, last packet 148 s before the end)
    /// gets how long it lasted at least, to the capture's end, not a duration as if it had ended.
    @Test func aLinkStillUpHasNoDuration() throws {
        let run = try CLI.run([SharedCaptures.path("real/fossibot_btsnoop_hci.log"), "--format", "markdown"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\n| C6 | +455.829346 | ≥ 213 s (still up) | 517 | 50 ms | 44 | 0 | still up at the end of the capture |\n"))
    }

    @Test func outputExtensionChoosesMarkdown() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-\(getpid()).md").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try CLI.run([CLI.sample("demo-lock.pklg"), "-o", path]).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("| Time | Device | Kind | Summary |"))
    }

    @Test func hostileNamesCannotBreakTheTables() throws {
        let path = try HostileCapture.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLI.run([path, "--format", "markdown"])
        #expect(run.stdout.contains(#"Link to &lt;script&gt;alert(1)&lt;/script&gt; (C0:11:22:33:44:55) lost"#))
        #expect(!run.stdout.contains("<script"))
        // Every table row keeps its column count: no unescaped pipe from a name.
        for row in run.stdout.split(separator: "\n") where row.hasPrefix("| ") {
            let cells = row.replacing("\\|", with: "").filter { $0 == "|" }.count
            #expect(cells == 3 || cells == 5 || cells == 7 || cells == 9, "\(row)")
        }
    }

    @Test func escapesMarkdownAndHTML() {
        #expect(MarkdownText.escape("a|b`c*d_e[x](y)~<i>&\u{1B}\n") == #"a\|b\`c\*d\_e\[x\](y)\~&lt;i&gt;&amp;\\x1b\\x0a"#)
    }
}

/// `--anonymize`: the same pseudonyms in every format, the originals nowhere but in the map.
@Suite(.serialized)
struct AnonymizeTests {
    static let originals = ["LOCK-A101", "LOCK-B7B2", "5C:3A:91:0E:C7:21", "C8:2B:96:41:07:B2", "E4:5F:01:22:33:44", "Scale"]

    @Test(arguments: ["text", "json", "html", "markdown"])
    func noOriginalInAnyFormat(format: String) throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--anonymize", "--format", format])
        #expect(run.status == 0)
        for original in Self.originals {
            #expect(!run.stdout.contains(original), "\(format) still shows \(original)")
            if original.contains(":") { #expect(!run.stdout.contains(original.lowercased()), "\(format) still shows \(original)") }
        }
        #expect(run.stdout.contains("Name-1") && run.stdout.contains("Name-2"))
        #expect(run.stdout.contains("40:00:00:00:00:01"))   // resolvable private stays resolvable-looking
    }

    /// A vendor command's line is made from its parts when read: each part that can carry a
    /// device's name or address is scrubbed, the run's summary too.
    @Test func vendorCommandLinesAreScrubbed() throws {
        var analysis = Analysis.run(try CaptureFile.open(CLI.sample("demo-lock.btsnoop")))
        let run = VendorCommandEvent.Run(endUs: 2_000_000, count: 12, failed: 0, summary: "12 more commands to LOCK-B7B2 over 1 s")
        analysis.vendorCommands = [
            VendorCommandEvent(timeUs: 1_000_000, record: 60, connectionID: ConnectionID(number: 2), deviceID: DeviceID(number: 2),
                               name: "UNLOCK (0x10)", outcome: .failed, sequence: 1, latencyUs: nil,
                               problem: "refused by LOCK-B7B2 (C8:2B:96:41:07:B2)"),
            VendorCommandEvent(timeUs: 1_000_000, record: 70, connectionID: ConnectionID(number: 2), deviceID: DeviceID(number: 2),
                               name: "UNLOCK (0x10)", outcome: .ok, latencyUs: nil, run: run),
        ]
        let scrubbed = Anonymizer(analysis).apply(to: analysis).vendorCommands
        #expect(scrubbed.map(\.summary) == ["UNLOCK (0x10) seq 0x01 failed: refused by Name-2 (00:00:00:00:00:02)",
                                             "12 more commands to Name-2 over 1 s"])
        #expect(scrubbed[1].run?.count == 12 && scrubbed[1].run?.endUs == 2_000_000)
    }

    /// Over the air the timeline names the central (CONNECT_IND's InitA) beside the peripheral;
    /// both get pseudonyms, in the text and the page alike.
    @Test(arguments: ["text", "html"])
    func anAirCapturesCentralIsAPseudonym(format: String) throws {
        var s = AirScenario()
        s.advertise(BluetoothAddress("D1:5C:F0:EE:02:8F")!)
        s.connectInd(initA: BluetoothAddress("4A:11:22:33:44:55")!, advA: BluetoothAddress("D1:5C:F0:EE:02:8F")!,
                     accessAddress: 0x5065_4BD1)
        s.wait(ms: 2)
        s.empty(0x5065_4BD1, .central)
        s.empty(0x5065_4BD1, .peripheral)
        let (plain, run) = try CLI.withCapture(s.pcap, suffix: "pcap") {
            (try CLI.run([$0, "--format", format]), try CLI.run([$0, "--anonymize", "--format", format]))
        }
        #expect(plain.stdout.contains("4A:11:22:33:44:55"))
        #expect(!run.stdout.contains("4A:11:22:33:44:55") && !run.stdout.contains("D1:5C:F0:EE:02:8F"))
        #expect(run.stdout.contains("central 00:00:00:00:00:02 (public) → peripheral 00:00:00:00:00:01 (public)"))
    }

    @Test func textAndSummariesAgreeAndTheMapIsWritten() throws {
        let map = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-map-\(getpid()).json").path
        defer { try? FileManager.default.removeItem(atPath: map) }
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--anonymize", "--anonymize-map", map])
        #expect(run.stdout.contains("D2 \"Name-2\"  00:00:00:00:00:02 (public)"))
        #expect(run.stdout.contains("link-lost: Link to Name-2 (00:00:00:00:00:02) lost: Connection Timeout (0x08)"))
        let mapping = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: map))) as? [String: [String: String]]
        #expect(mapping?["addresses"]?["00:00:00:00:00:02"] == "C8:2B:96:41:07:B2")
        #expect(mapping?["names"]?["Name-1"] == "LOCK-A101")
        #expect(mapping?["names"]?["Name-3"] == "Scale\u{1B}[31m")
    }
}
