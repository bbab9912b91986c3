import BLEAnalysis
import AnalyzerTestSupport
import BLEBase
import BLECaptureFormats
import Foundation
import BLEReports
import BLESessions
import Testing
import BLEVendorDecoding

/// The terminal timeline, `bledecode CAPTURE`'s default output.
@Suite(.serialized)
struct TimelineTests {
    static let demoFaults = "synthetic/demo-faults.btsnoop"

    @Test func plainEqualsGolden() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop")])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\u{1B}["))
        try Golden.check(run.stdout, against: "timeline-demo-lock.txt")
    }

    @Test func colourEqualsGolden() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--color", "always"])
        try Golden.check(run.stdout, against: "timeline-demo-lock.color.txt")
        #expect(run.stdout.contains("\u{1B}[31mlink-lost: Link to LOCK-B7B2"))
        #expect(run.stdout.contains("\u{1B}[33mdangling-connection: "))
        // The hostile name stays escaped even in colour.
        #expect(run.stdout.contains(#"D3 "Scale\x1b[31m""#))
        #expect(!run.stdout.contains("Scale\u{1B}"))
    }

    @Test func verboseEqualsGoldenWithRecordNumbers() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--verbose", "--time", "delta"])
        try Golden.check(run.stdout, against: "timeline-demo-lock-verbose.txt")
        // The failed write under its characteristic, with request and response records.
        #expect(run.stdout.contains("Write Request 64 → Error Response: Write Not Permitted (0x03) in 32.5 ms  #128 #130"))
        #expect(run.stdout.contains("connected as central, handle 0x0040, 43.5 ms after the request; interval 30 ms, latency 0, timeout 4 s; MTU 247, data length 251/251  #31\n"))
    }

    @Test func colourOffWithNoColorOrNever() throws {
        // CLI.run sets NO_COLOR and the output is a pipe: auto means no colour.
        let auto = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--color", "auto"])
        let never = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--color", "never"])
        #expect(!auto.stdout.contains("\u{1B}[") && !never.stdout.contains("\u{1B}["))
    }

    @Test func deviceFilterKeepsOneLane() throws {
        let byID = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--device", "D2"])
        let byName = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--device", "b7b2"])
        let byAddress = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--device", "c8:2b:96:41:07:b2"])
        for run in [byID, byName, byAddress] {
            #expect(run.stdout.contains("\nD2 \"LOCK-B7B2\""))
            #expect(!run.stdout.contains("\nD1 ") && !run.stdout.contains("\nD3 "))
            #expect(!run.stdout.contains("Host and capture"))
        }
    }

    @Test func onlyFailuresShowsOnlyMarkedLines() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--only-failures"])
        let events = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        // Failures only: the link left open at the end is a warning, not shown.
        #expect(events.count == 5)
        #expect(events.allSatisfy { $0.contains("✗ ") })
        #expect(!run.stdout.contains("\nD3 "))   // the scale never failed
    }

    @Test func timeWindowRelativeAndAbsolute() throws {
        let relative = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--since", "2", "--until", "6.9"])
        let absolute = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--since", "2024-04-25T08:23:54Z",
                                    "--until", "2024-04-25T08:23:58.9Z"])
        #expect(relative.stdout == absolute.stdout)
        let times = relative.stdout.split(separator: "\n").compactMap { line -> Double? in
            line.split(separator: " ").first.flatMap { $0.hasPrefix("+") ? Double($0.dropFirst()) : nil }
        }
        #expect(!times.isEmpty)
        // Spans that overlap the window (C2 started before 2 s) stay; nothing starts after 6.9 s.
        #expect(times.allSatisfy { $0 <= 6.9 })
        #expect(relative.stdout.contains("link-lost"))
        #expect(!relative.stdout.contains("dangling-connection:"))
        let bad = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--since", "yesterday"])
        #expect(bad.status == 2)
    }

    @Test func handleAndUUIDFilters() throws {
        let byHandle = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--handle", "0x000c"])
        let byUUID = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--uuid", "2a19"])
        for run in [byHandle, byUUID] {
            #expect(run.stdout.contains("Battery Level (2A19): Write Request ×1"))
            #expect(run.stdout.contains("att-error: Write Request to Battery Level (2A19) failed"))
            #expect(!run.stdout.contains("FFE1:"))
            #expect(!run.stdout.contains("advertising:"))
        }
        // The connection line stays as context for the lines that matched on it.
        #expect(byHandle.stdout.contains("C2    connected as central"))
    }

    @Test func absoluteTimes() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--time", "absolute", "--device", "D3", "-v"])
        #expect(run.stdout.contains("  2024-04-25T08:23:52.052500Z        advertising: 4 advertisements"))
        // Without -v, a device only seen advertising is one line.
        let compact = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--time", "absolute", "--device", "D3"])
        #expect(compact.stdout.contains(#"  D3 "Scale\x1b[31m"  E4:5F:01:22:33:44 (random-static)  4 advertisements, "#
                                        + "2024-04-25T08:23:52.052500Z…2024-04-25T08:23:52.371250Z, RSSI -81 dBm"))
    }

    /// With the demo profile, every failure the generator injected shows highlighted with its
    /// reason; every highlighted line is a failure of the report or a vendor command that did
    /// not end well.
    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures"))
    func demoFaultsHighlightsEveryFailureAndNothingElse() throws {
        let truth = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: SharedCaptures.path(Self.demoFaults + ".truth.json")))) as? [String: Any]
        let injected = (truth?["failures"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        let kinds: [String: String] = [
            "hci_cmd_complete_error": "hci-command-failed", "hci_cmd_status_error": "hci-command-failed",
            "att_write_not_permitted": "att-error", "att_read_insufficient_auth": "att-error",
            "conn_fail_3e": "connection-failed", "create_conn_never_completes": "connection-never-completed",
            "dangling_connection": "dangling-connection", "write_no_response_link_drop": "att-no-response",
            "truncated_final_record": "capture-truncated", "vendor_bad_crc": "vendor-crc-mismatch",
            "vendor_no_response": "vendor-no-response", "vendor_status_fail": "vendor-status-failure",
        ]
        let arguments = [SharedCaptures.path(Self.demoFaults), "--profile", "Samples/profiles/demo-lock.yaml"]
        let run = try CLI.run(arguments + ["--color", "always"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let highlighted = lines.filter { $0.contains("\u{1B}[31m") || $0.contains("\u{1B}[33m") }
        var expected: [String: Int] = [:]
        for kind in injected { expected[try #require(kinds[kind], "unmapped truth kind \(kind)"), default: 0] += 1 }
        #expect(expected.values.reduce(0, +) == 12)
        for (kind, count) in expected {
            let shown = highlighted.filter { $0.contains("m\(kind): ") }
            #expect(shown.count >= count, "\(kind): \(shown.count) highlighted, \(count) injected")
            // Each says why in words after the kind.
            #expect(shown.allSatisfy { line in
                line.components(separatedBy: "m\(kind): ").last.map { $0.count > 20 } ?? false })
        }
        let report = try CLI.run(["report"] + arguments)
        let object = try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any]
        // Failures (red) and warnings (yellow); info is not highlighted.
        let failures = (object?["failures"] as? [[String: Any]] ?? [])
            + (object?["notices"] as? [[String: Any]] ?? []).filter { $0["severity"] as? String == "warning" }
        let summaries = failures.compactMap { failure -> String? in
            guard let kind = failure["kind"] as? String, let summary = failure["summary"] as? String else { return nil }
            return "\(kind): \(summary)"
        }
        #expect(summaries.count == 14)
        for summary in summaries {
            #expect(highlighted.contains { $0.contains(summary) }, "not highlighted: \(summary)")
        }
        for line in highlighted {
            let isFailure = summaries.contains { line.contains($0) }
            // A failed command: under its own failure kind, or naming the failure its write got.
            let isFailedCommand = (line.contains(": vendor ") || line.contains("(its write: att-no-response)"))
                && !line.contains(" ok in ")
            #expect(isFailure || isFailedCommand, "highlighted but not a failure: \(line)")
        }
        // The plain text marks the same lines.
        let plain = try CLI.run(arguments)
        #expect(plain.stdout.split(separator: "\n").filter { $0.contains(" ✗ ") || $0.contains(" ! ") }.count == highlighted.count)
    }

    /// On air there is no local side: CONNECT_IND names the central and the peripheral, and
    /// the LL_TERMINATE_IND's sender ended the link.
    @Test func airTimelineNamesCentralAndPeripheral() throws {
        let central = BluetoothAddress("C0:11:22:33:44:55")!, peripheral = BluetoothAddress("D1:5C:F0:EE:02:8F")!
        var s = AirScenario()
        s.advertise(peripheral)
        s.connectInd(initA: central, advA: peripheral, accessAddress: 0x5065_4BD1)
        s.wait(ms: 2)
        s.empty(0x5065_4BD1, .central)
        s.empty(0x5065_4BD1, .peripheral)
        s.wait(ms: 30)
        s.empty(0x5065_4BD1, .central)
        s.terminate(0x5065_4BD1, .peripheral, reason: 0x13)
        let run = try CLI.withCapture(s.pcap, suffix: "pcap") { try CLI.run([$0]) }
        #expect(run.stdout.contains("    +0.000625  C1    connected: central C0:11:22:33:44:55 (public) → peripheral "
                                    + "D1:5C:F0:EE:02:8F (public), access address 0x50654BD1; interval 30 ms, latency 0, "
                                    + "timeout 2 s; MTU 23\n"))
        #expect(run.stdout.contains("C1    disconnected after 34.5 ms: Remote User Terminated Connection (0x13), by the peripheral\n"))
        #expect(!run.stdout.contains("connected as unknown"))
    }

    /// SET_TIME's write was never answered: its failure is the att-no-response of that write
    /// (one cause, one failure), so its command line names that failure rather than take a
    /// vendor failure kind the report does not count.
    @Test func aCommandFailedByItsWriteNamesThatFailure() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--profile", "Samples/profiles/demo-lock.yaml", "--only-failures"])
        #expect(run.stdout.contains("    +2.807000  C2  ✗ vendor SET_TIME (0x02) seq 0xC5 got no response (its write: att-no-response)\n"))
        #expect(run.stdout.components(separatedBy: "✗ vendor-no-response:").count - 1 == 1)
    }

    /// garmin.pcapng 4553: the write's finding is a warning (the sniffer lost the link; its end
    /// was not seen), and so is its line among the listed transactions.
    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func anUnansweredWriteOfALinkWhoseEndWasNotSeenIsAWarningEverywhere() throws {
        let run = try CLI.run([SharedCaptures.path("real/garmin.pcapng"), "--color", "never", "-v"])
        #expect(run.stdout.contains("   +39.385565      !   CCCD of 6A4E2810-667B-11E3-949A-0800200C9A66: Write Request 0100 → no "
                                    + "response (no-response)  #4553\n"))
        #expect(run.stdout.contains("C1  ! att-no-response: Write Request to CCCD of 6A4E2810-667B-11E3-949A-0800200C9A66 got no "
                                    + "readable answer: "))
    }

    /// A device that is a GATT client of the host: its discovery of the host's server is a line
    /// of its own, and its request's handle is the host's, not the device's.
    @Test func theDevicesRequestsToTheHostSayWhoseHandle() throws {
        let run = try CLI.withCapture(CaptureWriter.btsnoop(SampleScenarios.lockAClientOfTheHost().records), suffix: "btsnoop") {
            try CLI.run([$0])
        }
        let lines = run.stdout.split(separator: "\n").map { String($0.drop { $0 == " " }) }
        #expect(lines.contains("+0.046000  C1    discovery: 4 services, 7 characteristics in 338 ms (Generic Access (1800), "
                               + "Generic Attribute (1801), Battery (180F), FFE0)"))
        #expect(lines.contains("+0.452250  C1    the device discovered the host's GATT server: 1 service, 0 characteristics "
                               + "in 0 µs (Current Time (1805))"))
        #expect(lines.contains("+0.490250  C1  ✗ att-error: Write Request to the host's handle 0x0000 failed: Invalid Handle (0x01)"))
        #expect(lines.contains("C1    the host's handle 0x0000: Write Request ×1 (median 2.3 ms), 1 not ok"))
    }

    /// Over the air the central can be a device of the capture too (a phone that advertised, or
    /// one its SMP identity names): its lane has a line pointing to the link, so that every
    /// device the closing line counts is shown, and the link's first line names it.
    @Test func anAirCentralThatIsADeviceHasALine() throws {
        let central = BluetoothAddress("C0:11:22:33:44:55")!, peripheral = BluetoothAddress("D1:5C:F0:EE:02:8F")!
        var s = AirScenario()
        s.advertise(peripheral, data: [0x05, 0x09] + Array("LOCK".utf8))
        s.advertise(central)
        s.connectInd(initA: central, advA: peripheral, accessAddress: 0x5065_4BD1)
        s.wait(ms: 2)
        s.empty(0x5065_4BD1, .central)
        s.empty(0x5065_4BD1, .peripheral)
        let run = try CLI.withCapture(s.pcap, suffix: "pcap") { try CLI.run([$0]) }
        #expect(run.stdout.contains("""
            D2  C0:11:22:33:44:55 (public)
                +0.000625        advertising: 1 advertisement, RSSI -50 dBm
                +0.001250  C1    connected as central to D1 "LOCK": the link's lines are under D1

            """))
        #expect(run.stdout.contains("C1    connected: central D2 C0:11:22:33:44:55 (public) → peripheral D1:5C:F0:EE:02:8F (public), "))
        #expect(run.stdout.contains("2 devices, 1 connection"))
        #expect(!run.stdout.contains("Only advertising"))
    }

    @Test func vendorCommandsShowByNameWithOutcomeAndLatency() throws {
        var analysis = Analysis.run(try CaptureFile.open(SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.btsnoop").path))
        let start = analysis.report.stats.firstTimeUs ?? 0
        analysis.vendorCommands = [
            VendorCommandEvent(timeUs: start + 1_000_000, record: 60, connectionID: ConnectionID(number: 1), deviceID: DeviceID(number: 1), name: "UNLOCK (0x10)",
                               outcome: .ok, sequence: 0x5A, latencyUs: 40_000),
            VendorCommandEvent(timeUs: start + 1_100_000, record: 70, connectionID: ConnectionID(number: 1), deviceID: nil, name: "LOCK (0x11)",
                               outcome: .failed, sequence: 0x5B, latencyUs: 41_000, problem: "status 0x03"),
        ]
        let text = TimelineText(style: Style(enabled: true)).render(analysis, timeline: Timeline(analysis))
        #expect(text.contains("    +1.000000  C1    vendor UNLOCK (0x10) seq 0x5A ok in 40 ms\n"))
        #expect(text.contains("    +1.100000  C1  \u{1B}[31m✗\u{1B}[0m \u{1B}[31mvendor-status-failure: vendor LOCK (0x11) seq 0x5B failed: status 0x03\u{1B}[0m\n"))
        // When the profile reports the failure itself, that line (with its reason) replaces the command's.
        analysis.report.failures.append(Failure(kind: .vendorStatusFailure, timeUs: start + 1_141_000, record: nil,
                                                deviceID: DeviceID(number: 1), connectionID: ConnectionID(number: 1), summary: "response LOCK (0x91) seq 0x5B: status 0x03"))
        let told = TimelineText(style: Style(enabled: false)).render(analysis, timeline: Timeline(analysis))
        #expect(!told.contains("vendor LOCK (0x11) seq 0x5B"))
        #expect(told.contains("    +1.141000  C1  ✗ vendor-status-failure: response LOCK (0x91) seq 0x5B: status 0x03\n"))
        let html = HTMLReport.render(analysis, timeline: Timeline(analysis), commandLine: "bledecode x")
        #expect(html.contains("C1 vendor UNLOCK (0x10) seq 0x5A ok in 40 ms"))
    }

    /// The closing line, and the Markdown and HTML reports' facts, name what was only counted:
    /// channels bledecode does not decode (isap's SDP and RFCOMM over BR/EDR), records that carry
    /// no packet (batteread, a `btmon -w` file of system notes and index records alone), radio
    /// noise (the watch's sniffer: 867 bad CRCs), vendor-specific events (fossibot, btmouse), an
    /// unknown LL Control opcode (crackle), BTstack's daemon traffic (isap); and the decoding
    /// problems by kind.
    @Test(.enabled(if: SharedCaptures.present, "needs ../shared/captures next to the package (absent here)"))
    func whatWasNotAnalysedIsSaid() throws {
        let isap = try CLI.run([SharedCaptures.path("real/isap_hci_dump.pklg"), "--color", "never"])
        // BTstack's daemon traffic (OGF 0x3D commands, events 0x60…0x74) is said, and the three
        // malformed daemon events.
        let isapEnd = ["; not analysed: 16 L2CAP PDUs on channels bledecode does not decode ",
                       "(SDP (PSM 0x0001) 8, RFCOMM (PSM 0x0003) 8), 8 BTstack daemon commands ",
                       "(OGF 0x3D, between BTstack and its clients, never sent to a controller) ",
                       "(0xF402 2, 0xF422 2, 0xF424 2, 0xF430 2), 29 BTstack daemon events ",
                       "(between BTstack and its clients, not from a controller) ",
                       "(0x60 3, 0x61 3, 0x70 4, 0x71 3, 0x72 4, 0x73 8, 0x74 4); ",
                       "decode issues: malformed 3 (`bledecode packets` marks them)\n"].joined()
        #expect(isap.stdout.hasSuffix(isapEnd))
        // Vendor-specific events: the fossibot phone's Bluetooth Quality Reports. Those saying a link
        // approaches its supervision timeout are warnings on the link, just before it is lost.
        let fossibot = try CLI.run([SharedCaptures.path("real/fossibot_btsnoop_hci.log"), "--color", "never"])
        #expect(fossibot.stdout.hasSuffix("; not analysed: 9 HCI vendor-specific events (0xFF) bledecode does not decode "
                                          + "(sub-event 0x58 9)\n"))
        #expect(fossibot.stdout.contains("\n    +2.713925  C1  ! supervision-timeout-approaching: controller reported "
                                         + "approaching supervision timeout on handle 0x0041, RSSI -127 dBm (nothing heard) "
                                         + "(Bluetooth Quality Report) (×2)\n    +2.751225  C1  ✗ link-lost: "))
        // Who ended a link in the timeline's words, not the JSON's `local-host`.
        #expect(fossibot.stdout.contains("\n  +116.847686  C4    disconnected after 5.29 s: Connection Terminated by Local Host "
                                         + "(0x16), by the host\n"))
        let btmouse = try CLI.run([SharedCaptures.path("real/btmouse_btsnoop_hci.log"), "--color", "never"])
        #expect(btmouse.stdout.hasSuffix("; not analysed: 1 HCI vendor-specific event (0xFF) bledecode does not decode "
                                         + "(sub-event 0x00 1)\n"))
        // An LL Control PDU of opcode 0xFF over the air (crackle's record 61): on its link and in the total.
        let crackle = try CLI.run([SharedCaptures.path("real/crackle_lesc.pcapng"), "--color", "never"])
        #expect(crackle.stdout.contains("  C1    LL Control opcode 0xFF: 1 packet, not analysed\n"))
        #expect(crackle.stdout.hasSuffix("; not analysed: 1 LL Control PDU of opcodes bledecode has no layout for (reserved, "
                                         + "or assigned after Core v5.3) (opcode 0xFF 1), "
                                         + "2 radio packet(s) credited to no advertiser or link (bad CRC, noise); "
                                         + "decode issues: interrupted-pdu 1 (`bledecode packets` marks them)\n"))
        let monitor = try CLI.run([SharedCaptures.path("real/batteread_capture.btsnoop"), "--color", "never"])
        #expect(monitor.status == 0)
        #expect(monitor.stdout.hasSuffix("\n0 devices, 0 connections, 0 failures; not analysed: "
                                         + "6 record(s) that carry no packet (notes, capture control, unknown types)\n"))
        // The reports for bug tickets say it among the capture's facts.
        let markdown = try CLI.run([SharedCaptures.path("real/isap_hci_dump.pklg"), "--format", "markdown"])
        #expect(markdown.stdout.contains("| Failures | 0 |\n| Not analysed | 16 L2CAP PDUs on channels bledecode does not "
                                         + "decode (SDP (PSM 0x0001) 8, RFCOMM (PSM 0x0003) 8); 8 BTstack daemon commands"))
        #expect(markdown.stdout.contains("| Decode issues | malformed 3 |\n"))
        let html = try CLI.run([SharedCaptures.path("real/batteread_capture.btsnoop"), "--format", "html"])
        #expect(html.stdout.contains("<tr><th>Not analysed</th><td>6 record(s) that carry no packet "
                                     + "(notes, capture control, unknown types)</td></tr>\n"))
        // Its 46 packets whose bytes break the layout all failed their CRC: counted once, as radio damage.
        let air = try CLI.run([SharedCaptures.path("real/watch_logs_capture.pcap"), "--color", "never"])
        #expect(air.stdout.hasSuffix("\n35 devices, 0 connections, 0 failures; not analysed: "
                                     + "867 radio packet(s) credited to no advertiser or link (bad CRC, noise)\n"))
    }

    @Test func closingSummaryAndMarkdownCountFailuresPastTheListingCap() throws {
        var analysis = Analysis.run(try CaptureFile.open(SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.btsnoop").path))
        // As if 1,500 more ATT errors had come: counted, not listed.
        analysis.report.stats.failuresByKind[.attError, default: 0] += 1_500
        let text = TimelineText(style: Style(enabled: false)).render(analysis, timeline: Timeline(analysis))
        #expect(text.hasSuffix("\n3 devices, 3 connections (1 still up at the end), 1 attempt that did not connect, 1505 failures: "
                               + "att-error 1502, att-no-response 1, hci-command-failed 1, link-lost 1 "
                               + "(5 listed: past 1000 of a kind, only counted); 1 warning: dangling-connection 1\n"))
        let markdown = MarkdownReport.render(analysis, commandLine: "bledecode x")
        #expect(markdown.contains("| Failures | 1505, 5 listed (at most 1000 of a kind) |\n"))
        #expect(markdown.contains("## Failures (1505, 5 listed (at most 1000 of a kind))\n"))
    }

    /// The CLI builds, filters and writes a lane at a time; that equals the whole timeline
    /// filtered and rendered at once.
    @Test(arguments: [TimelineFilter(), TimelineFilter(onlyFailures: true), TimelineFilter(devices: ["D2"]),
                      TimelineFilter(since: .relative(2_000_000), until: .relative(7_000_000)), TimelineFilter(handles: [0x0012])])
    func lanesBuiltOneAtATimeRenderAsTheWholeTimeline(filter: TimelineFilter) throws {
        let profile = try ProfileLoader.load(path: SharedCaptures.packageRoot.appendingPathComponent("Samples/profiles/demo-lock.yaml").path)
        for path in [SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.btsnoop").path,
                     SharedCaptures.path(Self.demoFaults)] {
            guard FileManager.default.fileExists(atPath: path) else { continue }   // ../shared absent: the sample alone
            let analysis = Analysis.run(try CaptureFile.open(path), profiles: [profile])
            let whole = filter.apply(to: Timeline(analysis))
            let text = TimelineText(style: Style(enabled: true), verbose: true)
            var streamed = ""
            text.render(analysis, building: TimelineBuilder(analysis), filter: filter) { streamed += $0 }
            #expect(streamed == text.render(analysis, timeline: whole))
            if filter.isEmpty { #expect(streamed.contains(" vendor ") && streamed.contains("Host and capture")) }
            var page = ""
            HTMLReport.render(analysis, building: TimelineBuilder(analysis), filter: filter, commandLine: "x") { page += $0 }
            #expect(page == HTMLReport.render(analysis, timeline: whole, commandLine: "x"))
        }
    }

    @Test func timeBoundsParse() {
        #expect(TimeBound("12.5") == .relative(12_500_000))
        #expect(TimeBound("+3") == .relative(3_000_000))
        #expect(TimeBound("1500ms") == .relative(1_500_000))
        #expect(TimeBound("2s") == .relative(2_000_000))
        #expect(TimeBound("2024-04-25T08:23:52.123646Z") == .absolute(1_714_033_432_123_646))
        #expect(TimeBound("2024-04-25T08:23:52.5") == .absolute(1_714_033_432_500_000))
        #expect(TimeBound("1970-01-01T00:00:00Z") == .absolute(0))
        for bad in ["", "-1", "nan", "inf", "2024-13-01T00:00:00Z", "2024-04-25T24:00:00Z", "2024-04-25", "12.5h", "1e10"] {
            #expect(TimeBound(bad) == nil, "\(bad)")
        }
    }

    @Test func progressRedrawsOnlyWhenThePercentageMovesAndNotTooOften() {
        var bar = TimelineProgress(totalBytes: 10_000_000)
        #expect(bar.update(offset: 0, nowUs: 0) == "[..............................]   0%  0.0 of 10.0 MB")
        #expect(bar.update(offset: 5_000_000, nowUs: 50_000) == nil)           // too soon
        #expect(bar.update(offset: 5_000_000, nowUs: 150_000) == "[###############...............]  50%  5.0 of 10.0 MB")
        #expect(bar.update(offset: 5_000_001, nowUs: 400_000) == nil)          // same percentage
        #expect(bar.update(offset: 20_000_000, nowUs: 600_000) == "[##############################] 100%  10.0 of 10.0 MB")
    }

    /// `--since` after `--until` is a usage error wherever the two are taken, bounds of one kind
    /// at once, a relative and an absolute one against the capture's first record.
    @Test(arguments: [[], ["report"], ["report", "--format", "html"], ["packets"]])
    func reversedWindowIsAUsageError(command: [String]) throws {
        for window in [["--since", "5", "--until", "2"], ["--since", "5", "--until", "1970-01-01T00:00:00Z"]] {
            let run = try CLI.run(command + [CLI.sample("demo-lock.btsnoop")] + window)
            #expect(run.status == 2, "\(window)")
            #expect(run.stderr.contains("--since is after --until: the time window is empty"), "\(run.stderr)")
            #expect(run.stdout == "")
        }
        // Both ends are included: one instant is a window.
        #expect(try CLI.run(command + [CLI.sample("demo-lock.btsnoop"), "--since", "2", "--until", "2"]).status == 0)
    }

    /// A `--device` that matches nothing says so, with the devices there are; the exit code
    /// stays the capture's.
    @Test func unmatchedDeviceIsNamed() throws {
        let run = try CLI.run([CLI.sample("demo-lock.btsnoop"), "--device", "NOPE", "--device", "D2"])
        #expect(run.status == 0)
        #expect(run.stderr == #"bledecode: warning: --device NOPE: no device matched; the capture has D1 (LOCK-A101), D2 (LOCK-B7B2), D3 (Scale\x1b[31m)"# + "\n")
        #expect(run.stdout.contains("D2 "))
        let analysis = Analysis.run(try CaptureFile.open(SharedCaptures.packageRoot.appendingPathComponent("Samples/demo-lock.btsnoop").path))
        #expect(TimelineFilter(devices: ["LOCK"]).unmatchedDevices(analysis.report.devices) == [])
        #expect(TimelineFilter(devices: ["x"]).unmatchedDevices(analysis.report.devices, shown: 1)
                == ["--device x: no device matched; the capture has D1 (LOCK-A101) and 2 more"])
    }
}
