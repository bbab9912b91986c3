import BLEAnalysis
import ArgumentParser
import BLEBase
import BLECaptureFormats
import Dispatch
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// `bledecode batch DIR|FILES… -o OUTDIR`: a JSON report per capture and one line per capture in
/// `OUTDIR/index.jsonl`, several captures at a time.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyze many captures: a JSON report each and a JSON Lines index.",
        discussion: """
            Folders are searched recursively (hidden files and OUTDIR skipped). Each capture's JSON \
            report goes to OUTDIR/NAME.json; OUTDIR/index.jsonl gets one line per file, in input \
            order: capture, status (ok, damaged, unreadable, skipped), exitCode, report, container, \
            records, devices, connections, failures, failuresByKind, noticesByKind, diagnostics. A \
            file found in a folder whose content is text (not a bug report) is skipped: its line \
            says why ("why":"not a capture (text)"), exitCode 0; a file named on the command line \
            is read as a capture whatever it holds. Progress goes to standard error. Exit codes: 0 \
            every capture was read to its end; 1 some capture was damaged or unreadable (its index \
            line says which); 2 usage error.
            """)

    @Argument(help: "Capture files and folders of captures.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Folder for the reports and index.jsonl (created if needed).")
    var output: String

    // Optional rather than defaulted: a default value would be printed in the help as well,
    // as this machine's core count.
    @Option(help: "Captures analysed at the same time (default: the number of cores).")
    var jobs: Int?

    @OptionGroup var vendor: ProfileOptions

    func validate() throws {
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        // Connection and device ids are a capture's own: naming one means nothing across a batch.
        if !vendor.applied.isEmpty {
            Diagnostics.error("--apply names a connection or device of one capture: not with batch")
            throw ExitCode(2)
        }
        let profiles = try vendor.load()
        let captures = try Self.expand(inputs, skipping: output)
        guard !captures.isEmpty else {
            Diagnostics.error("no capture files in \(inputs.joined(separator: ", "))")
            throw ExitCode(2)
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            Diagnostics.error("\(output): cannot create the output folder")
            throw ExitCode(2)
        }
        let index = try Output.open(output + "/index.jsonl")
        let state = BatchState(jobs: BatchJob.plan(captures, into: output), index: index)
        let frames = vendor.frames
        let commandLine = (["bledecode"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
        let group = DispatchGroup()
        let workers = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, captures.count)
        // One capture at a time: its analysis uses the second core itself.
        let pipelined = workers == 1
        for _ in 0..<workers {
            DispatchQueue.global().async(group: group) {
                while let job = state.take() {
                    state.finish(job.analyze(profiles: profiles, frames: frames, commandLine: commandLine,
                                             pipelined: pipelined))
                }
            }
        }
        group.wait()
        index.flush()
        if state.worstExit != 0 { throw ExitCode(1) }
    }

    /// Files as given, folders searched recursively; sorted, hidden files and `outputFolder` skipped.
    /// `found` says a file came from a folder's search.
    static func expand(_ inputs: [String], skipping outputFolder: String) throws -> [(path: String, found: Bool)] {
        let skipped = URL(fileURLWithPath: outputFolder).standardizedFileURL.path + "/"
        var files: [(path: String, found: Bool)] = []
        for input in inputs {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else {
                Diagnostics.error("\(input): no such file or folder")
                throw ExitCode(2)
            }
            guard isFolder.boolValue else {
                files.append((input, false))
                continue
            }
            let found = (FileManager.default.subpaths(atPath: input) ?? []).sorted().compactMap { relative -> String? in
                guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { return nil }
                let path = (input.hasSuffix("/") ? input : input + "/") + relative
                var folder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &folder), !folder.boolValue,
                      !URL(fileURLWithPath: path).standardizedFileURL.path.hasPrefix(skipped) else { return nil }
                return path
            }
            files += found.map { ($0, true) }
        }
        return files
    }
}

/// One capture of a batch and where its report goes.
struct BatchJob: Sendable {
    var number: Int
    var capture: String
    /// Found in a folder rather than named: a file plainly not a capture is skipped.
    var found: Bool
    /// The report's file name inside `folder`, the output folder.
    var reportName: String
    var folder: String

    /// Report names from the captures' base names; a repeated name gets `-2`, `-3`….
    static func plan(_ captures: [(path: String, found: Bool)], into folder: String) -> [BatchJob] {
        var used: [String: Int] = [:]
        return captures.enumerated().map { number, capture in
            let base = (capture.path as NSString).lastPathComponent
            let count = used[base, default: 0] + 1
            used[base] = count
            return BatchJob(number: number, capture: capture.path, found: capture.found,
                            reportName: base + (count > 1 ? "-\(count)" : "") + ".json", folder: folder)
        }
    }

    /// Reads the capture, writes its report, and returns its index line.
    func analyze(profiles: [Profile], frames: VendorLayer.Listing, commandLine: String, pipelined: Bool) -> BatchResult {
        let started = DispatchTime.now().uptimeNanoseconds
        var line = JSONWriter(capacity: 512)
        line.beginObject()
        line.field("capture", capture)
        let reader: any RecordReader
        do {
            reader = try CaptureFile.open(capture)
        } catch {
            if found, let content = error.otherContent {
                let why = "not a capture (\(content))"
                line.field("status", "skipped")
                line.field("why", why)
                line.field("exitCode", 0)
                line.key("report")
                line.null()
                line.endObject()
                return BatchResult(job: self, exit: 0, line: line.bytes, summary: "skipped: \(why)",
                                   elapsedNs: DispatchTime.now().uptimeNanoseconds - started)
            }
            line.field("status", "unreadable")
            line.field("exitCode", 2)
            line.key("report")
            line.null()
            line.key("diagnostics")
            line.beginArray()
            line.string(error.description)
            line.endArray()
            line.endObject()
            return BatchResult(job: self, exit: 2, line: line.bytes, summary: "unreadable: \(error.message)",
                               elapsedNs: DispatchTime.now().uptimeNanoseconds - started)
        }
        let analysis = Analysis.run(reader, options: SessionOptions(transactions: .failed), profiles: profiles,
                                    frames: frames, vendorCommands: false, pipelined: pipelined)
        let damaged = analysis.diagnostics.contains { $0.severity == .error }
        let written = Self.write(analysis, commandLine: commandLine, parallel: pipelined, to: reportPath)
        let report = analysis.report
        let failures = report.stats.failures
        line.field("status", written ? (damaged ? "damaged" : "ok") : "report-not-written")
        line.field("exitCode", written && !damaged ? 0 : 1)
        line.field("report", optional: written ? reportName : nil)
        line.field("container", analysis.info.container.rawValue)
        line.field("records", report.stats.records)
        line.field("devices", report.devices.count)
        line.field("connections", report.connections.count)
        line.field("failures", failures)
        line.key("failuresByKind")
        line.beginObject()
        for (kind, count) in report.stats.failuresByKind.sorted(by: { $0.key < $1.key }) { line.dynamicKey(kind.rawValue); line.int(count) }
        line.endObject()
        line.key("noticesByKind")
        line.beginObject()
        for (kind, count) in report.stats.noticesByKind.sorted(by: { $0.key < $1.key }) { line.dynamicKey(kind.rawValue); line.int(count) }
        line.endObject()
        line.key("diagnostics")
        line.beginArray()
        for diagnostic in analysis.diagnostics { line.string(diagnostic.description) }
        line.endArray()
        line.endObject()
        let summary = (written ? (damaged ? "damaged" : "ok") : "report not written")
            + ", " + TimelineFormat.counted(report.devices.count, "device") + ", "
            + TimelineFormat.counted(report.connections.count, "connection") + ", " + TimelineFormat.counted(failures, "failure")
        return BatchResult(job: self, exit: written && !damaged ? 0 : 1, line: line.bytes, summary: summary,
                           elapsedNs: DispatchTime.now().uptimeNanoseconds - started)
    }

    var reportPath: String { folder + "/" + reportName }

    /// Streams the JSON report to `path` (memory stays flat however long the report); `parallel`
    /// when this capture is the only one being analysed.
    private static func write(_ analysis: Analysis, commandLine: String, parallel: Bool, to path: String) -> Bool {
        let fd = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return false }
        let out = BufferedOutput(fileDescriptor: fd, closeWhenDone: true)
        ReportJSON.write(analysis, commandLine: commandLine, parallel: parallel, to: { out.write(bytes: $0) })
        out.write("\n")
        out.flush()
        return true
    }
}

/// What one capture gave: its exit code and index line.
struct BatchResult: Sendable {
    var job: BatchJob
    var exit: Int32
    var line: [UInt8]
    var summary: String
    var elapsedNs: UInt64
}

/// What the workers share: the queue of captures, the index written in input order as results
/// arrive, and progress on standard error. Every member is only touched with `lock` held.
final class BatchState: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: ArraySlice<BatchJob>
    private let total: Int
    private var waiting: [Int: BatchResult] = [:]
    private var nextLine = 0
    private var done = 0
    private let index: BufferedOutput
    private let stderr = BufferedOutput(fileDescriptor: 2, capacity: 1 << 12)
    private var worst: Int32 = 0

    init(jobs: [BatchJob], index: BufferedOutput) {
        queue = jobs[...]
        total = jobs.count
        self.index = index
    }

    var worstExit: Int32 { lock.withLock { worst } }

    func take() -> BatchJob? {
        lock.withLock { queue.popFirst() }
    }

    func finish(_ result: BatchResult) {
        lock.withLock {
            done += 1
            worst = max(worst, result.exit)
            waiting[result.job.number] = result
            while let ready = waiting.removeValue(forKey: nextLine) {
                index.write(bytes: ready.line)
                index.write("\n")
                nextLine += 1
            }
            index.flush()
            let seconds = String(format: "%.2f", Double(result.elapsedNs) / 1e9)
            stderr.line("[\(done)/\(total)] " + TerminalText.escape(result.job.capture) + ": \(result.summary) (\(seconds) s)")
            stderr.flush()
        }
    }
}
