import BLEAnalysis
import BLEBase
import BLESessions

/// A summary to paste into a GitHub issue or a Jira ticket: the capture's facts, the failures,
/// the connections per device, and the command line that produced it. Text from the capture is
/// escaped by `MarkdownText`.
public enum MarkdownReport {
    public static func render(_ analysis: Analysis, commandLine: String) -> String {
        let report = analysis.report
        let start = report.stats.firstTimeUs ?? 0
        let devices = Dictionary(report.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        func device(_ id: DeviceID?) -> String {
            guard let id else { return "—" }
            return MarkdownText.escape(devices[id].map(TimelineFormat.title) ?? id.description)
        }
        func at(_ us: Int64) -> String { (us < start ? "" : "+") + Timestamp.relativeSeconds(us - start) }
        var lines = ["# bledecode: " + MarkdownText.escape(analysis.info.path), "", "| Capture | |", "| --- | --- |"]
        let dangling = report.connections.filter(\.dangling).count
        var facts = [("Format", analysis.info.linkTypeDescription), ("Records", "\(report.stats.records)")]
        if let first = report.stats.firstTimeUs, let last = report.stats.lastTimeUs {
            facts.append(("Start", Timestamp.iso8601(unixMicroseconds: first)))
            facts.append(("Duration", TimelineFormat.duration(last - first)))
        }
        facts.append(("Devices", "\(report.devices.count)"))
        facts.append(("Connections", "\(report.connections.count)" + (dangling > 0 ? " (\(dangling) still up at the end)" : "")))
        // Past the listing cap failures are only counted: the count says so.
        let counted = TimelineFormat.failureCount(report)
        facts.append(("Failures", counted))
        let notAnalysed = TimelineFormat.notAnalysed(report.stats)
        if !notAnalysed.isEmpty { facts.append(("Not analysed", notAnalysed.joined(separator: "; "))) }
        if let issues = TimelineFormat.decodeIssues(report.stats) { facts.append(("Decode issues", issues)) }
        lines += facts.map { "| \($0.0) | " + MarkdownText.escape($0.1) + " |" }

        lines += ["", "## Failures (\(counted))", ""]
        if report.failures.isEmpty {
            lines.append("None.")
        } else {
            lines += ["| Time | Device | Kind | Summary |", "| --- | --- | --- | --- |"]
            // A run of vendor failures is one row, where its first listed failure was.
            let runs = analysis.vendorFailureRuns
            let (inRuns, _) = Timeline.toldByFailureRuns(runs, failures: report.failures, commands: [])
            var runsShown = Set<Int>()
            for (index, failure) in report.failures.enumerated() {
                guard inRuns.contains(index) else {
                    lines.append("| \(at(failure.timeUs)) | \(device(failure.deviceID)) | \(failure.kind.rawValue) | "
                                 + MarkdownText.escape(failure.summary) + " |")
                    continue
                }
                guard let r = runs.indices.first(where: { runs[$0].connection == failure.connectionID && runs[$0].kind == failure.kind
                    && runs[$0].firstUs <= failure.timeUs && failure.timeUs <= runs[$0].lastUs }), runsShown.insert(r).inserted
                else { continue }
                let run = runs[r]
                lines.append("| \(at(run.firstUs)) … \(at(run.lastUs)) | \(device(run.device ?? failure.deviceID)) | "
                             + "\(run.kind.rawValue) | " + MarkdownText.escape("\(run.connection): " + run.summary) + " |")
            }
        }

        // Info rows (stack housekeeping) are listed too, as the HTML page does: the header counts them.
        let notices = report.notices
        if !notices.isEmpty {
            let warned = notices.filter { $0.severity == .warning }.reduce(0) { $0 + $1.count }
            let info = notices.filter { $0.severity == .info }.reduce(0) { $0 + $1.count }
            lines += ["", "## Notices (" + TimelineFormat.counted(warned, "warning") + ", \(info) info)", ""]
            lines += ["| Time | Device | Kind | Severity | Summary | Count |", "| --- | --- | --- | --- | --- | --- |"]
            for notice in notices {
                lines.append("| \(at(notice.timeUs)) | \(device(notice.deviceID)) | \(notice.kind.rawValue) | \(notice.severity.rawValue) | "
                             + MarkdownText.escape(notice.summary) + " | \(notice.count) |")
            }
        }

        lines += ["", "## Connections per device"]
        let byDevice = Dictionary(grouping: report.connections) { $0.deviceID }
        // Links whose peer the capture never named (begun before it) are listed after the devices.
        let known = Set(report.devices.map(\.id))
        let unnamed = report.connections.filter { $0.deviceID.map { !known.contains($0) } ?? true }
        let sections = report.devices.filter { byDevice[$0.id] != nil }.map { entry in
            ("### " + device(entry.id) + " — "
                + MarkdownText.escape(entry.addresses.map { "\($0.address) (\($0.type.rawValue))" }.joined(separator: ", ")),
             byDevice[entry.id] ?? [])
        } + (unnamed.isEmpty ? [] : [("### Links with no known peer", unnamed)])
        for (title, connections) in sections {
            lines += ["", title, ""]
            lines += ["| Connection | Start | Duration | MTU | Interval | ATT transactions | Not ok | End |",
                      "| --- | --- | --- | --- | --- | --- | --- | --- |"]
            for connection in connections {
                let totals = connection.transactionTotals.byKey.map(\.value)
                let count = totals.reduce(0) { $0 + $1.count }
                let failed = totals.reduce(0) { $0 + $1.errors + $1.unanswered }
                let end = connection.dangling ? "still up at the end of the capture"
                    : connection.disconnectReason.map { "\($0.name) (\(Hex.code($0.rawValue)))" } ?? "ended"
                // A link up at the end lasted at least to the capture's end, not only to its last packet:
                // a lower bound, not a duration as if it had ended.
                let duration = connection.dangling
                    ? "≥ " + TimelineFormat.duration(max(report.stats.lastTimeUs ?? 0, connection.lastActivityUs) - connection.startUs)
                        + " (still up)"
                    : TimelineFormat.duration((connection.endUs ?? connection.lastActivityUs) - connection.startUs)
                let interval = connection.parameters.last.map { TimelineFormat.duration(Int64($0.intervalUs)) } ?? "—"
                let start = at(connection.startUs) + (connection.startedBeforeCapture ? " (connected before the capture)" : "")
                    + (connection.transport == .brEdr ? ", BR/EDR" : "")
                lines.append("| \(connection.id) | \(start) | \(duration) | \(connection.mtu) | \(interval) "
                             + "| \(count) | \(failed) | " + MarkdownText.escape(end) + " |")
            }
        }

        let fence = String(repeating: "`", count: max(3, MarkdownText.longestBacktickRun(commandLine) + 1))
        lines += ["", "## Command line", "", fence, commandLine.replacing("\n", with: " "), fence]
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Makes untrusted text inert in Markdown: control characters shown as escapes, `& < >` as
/// entities, Markdown punctuation (emphasis, links, code, table pipes) behind a
/// backslash, line breaks as spaces (a table row is one line).
public enum MarkdownText {
    /// Characters that start emphasis, code, links or cells anywhere in a line (cells never
    /// start a line, so `#`, `-`, `+` need no escape there).
    static let punctuation: Set<Character> = ["\\", "`", "*", "_", "[", "]", "|", "~"]

    public static func escape(_ text: String) -> String {
        var out = ""
        for character in TerminalText.escape(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default:
                if punctuation.contains(character) { out.append("\\") }
                out.append(character)
            }
        }
        return out
    }

    static func longestBacktickRun(_ text: String) -> Int {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
