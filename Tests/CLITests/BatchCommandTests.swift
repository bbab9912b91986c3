import AnalyzerTestSupport
import Foundation
import Testing

/// `bledecode batch`: reports per capture, the JSON Lines index in input order, exit codes.
@Suite(.serialized)
struct BatchCommandTests {
    /// A fresh folder holding `files` (relative path → bytes); removed by the caller.
    static func folder(_ files: [String: [UInt8]]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-batch-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        return root
    }

    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: SharedCaptures.packageRoot.appendingPathComponent("Samples/" + name)))
    }

    static func lines(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }

    @Test func reportsAndIndexInInputOrder() throws {
        let btsnoop = try Self.sample("demo-lock.btsnoop")
        let input = try Self.folder([
            "a/demo-lock.btsnoop": btsnoop,
            "b/demo-lock.btsnoop": Array(btsnoop.prefix(3000)),     // ends inside record 66: a warning
            "c/demo-lock.pcapng": try Self.sample("demo-lock.pcapng"),
            "c/notes.txt": Array("not a capture\n".utf8),
            ".hidden/demo-lock.pklg": try Self.sample("demo-lock.pklg"),
        ])
        defer { try? FileManager.default.removeItem(at: input) }
        let out = input.appendingPathComponent("out")
        let run = try CLI.run(["batch", input.path, "-o", out.path, "--jobs", "2",
                               "--profile", "Samples/profiles/demo-lock.yaml"])
        #expect(run.status == 0)   // notes.txt, text found in a folder, is skipped
        let index = try Self.lines(out.appendingPathComponent("index.jsonl"))
        #expect(index.map { $0["capture"] as? String } == [
            input.path + "/a/demo-lock.btsnoop", input.path + "/b/demo-lock.btsnoop",
            input.path + "/c/demo-lock.pcapng", input.path + "/c/notes.txt"])
        #expect(index.map { $0["report"] as? String } == ["demo-lock.btsnoop.json", "demo-lock.btsnoop-2.json",
                                                          "demo-lock.pcapng.json", nil])
        #expect(index.map { $0["status"] as? String } == ["ok", "ok", "ok", "skipped"])
        #expect(index.map { $0["why"] as? String } == [nil, nil, nil, "not a capture (text)"])
        #expect(index.map { $0["exitCode"] as? Int } == [0, 0, 0, 0])
        #expect(index.map { $0["records"] as? Int } == [164, 65, 164, nil])
        #expect(index.map { $0["devices"] as? Int } == [3, 3, 3, nil])
        #expect(index.map { $0["connections"] as? Int } == [3, 1, 3, nil])
        let demoFailures = ["att-error": 2, "att-no-response": 1, "hci-command-failed": 1,
                            "link-lost": 1, "vendor-no-response": 1, "vendor-status-failure": 1]
        #expect(index[0]["failuresByKind"] as? [String: Int] == demoFailures)
        #expect(index[0]["failures"] as? Int == 7)
        // The link still up at the end failed nothing: a warning.
        #expect(index[0]["noticesByKind"] as? [String: Int] == ["dangling-connection": 1])
        #expect(index[2]["failuresByKind"] as? [String: Int] == demoFailures)
        #expect((index[1]["diagnostics"] as? [String])?.first?.hasSuffix("record 66 at byte 2947: file ends inside the record: 53 of 56 bytes") == true)
        // Each report is the same JSON report `bledecode --json` writes.
        for name in ["demo-lock.btsnoop.json", "demo-lock.btsnoop-2.json", "demo-lock.pcapng.json"] {
            let json = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            #expect(try ReportCommandTests.validate(json) == [], "\(name)")
        }
        // Progress: one line per capture on standard error.
        #expect(run.stderr.split(separator: "\n").filter { $0.hasPrefix("[") }.count == 4)
        #expect(run.stderr.contains("/c/notes.txt: skipped: not a capture (text) ("))
    }

    /// Only text found in a folder is passed over: other bytes that are no capture, and any file
    /// named on the command line, still fail the run.
    @Test func skipsOnlyTextFoundInAFolder() throws {
        let input = try Self.folder([
            "demo-lock.pklg": try Self.sample("demo-lock.pklg"),
            "lock.yaml.gz": CaptureWriter.gzip(Array("name: lock\n".utf8)),
            "photo.bin": [0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x00, 0x0D],
        ])
        defer { try? FileManager.default.removeItem(at: input) }
        let out = input.appendingPathComponent("out")
        let run = try CLI.run(["batch", input.path, "-o", out.path])
        #expect(run.status == 1)
        let index = try Self.lines(out.appendingPathComponent("index.jsonl"))
        #expect(index.map { $0["status"] as? String } == ["ok", "skipped", "unreadable"])
        #expect(index.map { $0["why"] as? String } == [nil, "not a capture (gzip-compressed text)", nil])
        #expect(index.map { $0["exitCode"] as? Int } == [0, 0, 2])

        let named = try CLI.run(["batch", "Samples/profiles/demo-lock.yaml", "-o", out.path])
        #expect(named.status == 1)
        let line = try #require(try Self.lines(out.appendingPathComponent("index.jsonl")).first)
        #expect(line["status"] as? String == "unreadable")
        #expect(line["exitCode"] as? Int == 2)
        #expect(line["why"] == nil)
    }

    @Test func allGoodExitsZeroAndAReRunSkipsTheOutputFolder() throws {
        let input = try Self.folder(["demo-lock.pklg": try Self.sample("demo-lock.pklg")])
        defer { try? FileManager.default.removeItem(at: input) }
        let out = input.appendingPathComponent("reports")
        for _ in 0..<2 {
            let run = try CLI.run(["batch", input.path, "-o", out.path])
            #expect(run.status == 0)
            let index = try Self.lines(out.appendingPathComponent("index.jsonl"))
            #expect(index.map { $0["report"] as? String } == ["demo-lock.pklg.json"])
            #expect(index.first?["failuresByKind"] as? [String: Int] == ["att-error": 2, "att-no-response": 1,
                "hci-command-failed": 1, "link-lost": 1])
        }
    }

    /// The progress line counts in words that agree with the numbers.
    @Test func progressLineCounts() throws {
        let input = try Self.folder(["battery-monitor.btsnoop": try Self.sample("battery-monitor.btsnoop")])
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try CLI.run(["batch", input.path, "-o", input.appendingPathComponent("out").path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("battery-monitor.btsnoop: ok, 1 device, 1 connection, 0 failures ("))
    }

    /// `--jobs`'s default is said once, in words (not as this machine's core count).
    @Test func jobsDefaultSaidOnce() throws {
        let run = try CLI.run(["help", "batch"])
        #expect(run.status == 0)
        let help = run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--jobs <jobs> Captures analysed at the same time (default: the number of cores). --profile"))
    }

    @Test(arguments: [
        (["batch", "/nonexistent/captures", "-o", "/tmp/x"], "/nonexistent/captures: no such file or folder"),
        (["batch", "Samples/demo-lock.pcap", "-o", "/tmp/x", "--jobs", "0"], "--jobs must be at least 1"),
        (["batch", "Samples/demo-lock.pcap"], "Missing expected argument '--output <output>'"),
    ])
    func usageErrorsExitTwo(arguments: [String], message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
