import BLEAnalysis
import BLEAssignedNumbers
import BLEBase
import BLESessions

/// The HTML report: one self-contained file (no network, no external assets; a Content
/// Security Policy forbids fetching anything) with one swimlane per device on a shared time
/// axis, the failure list linked to the timeline, the GATT database per device and the
/// capture's facts. Tables are written here, escaped by `HTMLText`; the lanes are drawn by the
/// page's script from one JSON blob (`HTMLReport.data`), which `JSONWriter` keeps inert.
public enum HTMLReport {
    public static func render(_ analysis: Analysis, timeline: Timeline, commandLine: String) -> String {
        var html = ""
        render(analysis, startUs: timeline.startUs, endUs: timeline.endUs, lanes: timeline.lanes, host: timeline.host,
               commandLine: commandLine) { html += $0 }
        return html
    }

    /// Hands the page to `write` a piece at a time, the lanes built, filtered and written one at
    /// a time, so that neither a long capture's page nor its whole timeline is held.
    public static func render(_ analysis: Analysis, building builder: TimelineBuilder, filter: TimelineFilter,
                              commandLine: String, to write: (String) -> Void) {
        render(analysis, startUs: builder.startUs, endUs: builder.endUs, lanes: builder.lanes(filter),
               host: builder.host(filter), commandLine: commandLine, to: write)
    }

    private static func render(_ analysis: Analysis, startUs: Int64, endUs: Int64, lanes: some Sequence<TimelineLane>,
                               host: [TimelineEvent], commandLine: String, to write: (String) -> Void) {
        let report = analysis.report
        let title = "bledecode: " + HTMLText.escape(analysis.info.path)
        write("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>\(stylesheet)</style>
            </head>
            <body>
            <h1>\(title)</h1>

            """)
        write(facts(analysis, commandLine: commandLine))
        write("""
            <section id="timeline">
            <h2>Timeline</h2>
            <div class="toolbar"><button type="button" id="zoom-in">Zoom in</button><button type="button" id="zoom-out">Zoom out</button><button type="button" id="zoom-reset">Whole capture</button>
            <span class="hint">Wheel to zoom, drag to pan, hover or click a mark for details.</span>
            <span class="legend"><i class="adv"></i>advertising <i class="ok"></i>connection / command ok <i class="warn"></i>warning (left open, worth a look) <i class="err"></i>failed</span></div>
            <div id="axis-row"><div class="label"></div><canvas id="axis"></canvas></div>
            <div id="lanes"></div>
            <div id="detail" class="detail">Click a mark to keep its details here.</div>
            </section>

            """)
        write(failures(report, start: startUs))
        write(notices(report, start: startUs))
        write(devices(report))
        write("<div id=\"tip\" class=\"tip\" hidden></div>\n")
        write("<script type=\"application/json\" id=\"bledecode-data\">")
        data(startUs: startUs, endUs: endUs, lanes: lanes, host: host) { write(String(decoding: $0, as: UTF8.self)) }
        write("</script>\n<script>\(script)</script>\n</body>\n</html>\n")
    }

    static func facts(_ analysis: Analysis, commandLine: String) -> String {
        let report = analysis.report
        var rows = [("File", analysis.info.path), ("Format", analysis.info.linkTypeDescription),
                    ("Records", "\(report.stats.records)")]
        if let first = report.stats.firstTimeUs, let last = report.stats.lastTimeUs {
            rows.append(("Start", Timestamp.iso8601(unixMicroseconds: first)))
            rows.append(("End", Timestamp.iso8601(unixMicroseconds: last)))
            rows.append(("Duration", TimelineFormat.duration(last - first)))
        }
        let dangling = report.connections.filter(\.dangling).count
        rows.append(("Devices", "\(report.devices.count)"))
        rows.append(("Connections", "\(report.connections.count)" + (dangling > 0 ? " (\(dangling) still up at the end)" : "")))
        rows.append(("Failures", TimelineFormat.failureCount(report)))
        let notAnalysed = TimelineFormat.notAnalysed(report.stats)
        if !notAnalysed.isEmpty { rows.append(("Not analysed", notAnalysed.joined(separator: "; "))) }
        if let issues = TimelineFormat.decodeIssues(report.stats) { rows.append(("Decode issues", issues)) }
        rows.append(("Command line", commandLine))
        return "<section id=\"capture\"><h2>Capture</h2><table class=\"facts\">\n"
            + rows.map { "<tr><th>\(HTMLText.escape($0.0))</th><td>\(HTMLText.escape($0.1))</td></tr>\n" }.joined()
            + "</table></section>\n"
    }

    /// Each row links to its moment on the timeline (`data-t`: µs from the first record) and
    /// names its packet as Wireshark numbers it (record numbers are Wireshark's frame numbers,
    /// also in `bledecode annotate`'s output), for the look at the bytes that follows.
    static func failures(_ report: SessionReport, start: Int64) -> String {
        let titles = Dictionary(report.devices.map { ($0.id, TimelineFormat.title($0)) }, uniquingKeysWith: { a, _ in a })
        var html = "<section id=\"failures\"><h2>Failures (\(HTMLText.escape(TimelineFormat.failureCount(report))))</h2>\n"
        guard !report.failures.isEmpty else { return html + "<p>None.</p></section>\n" }
        html += "<table class=\"list\"><tr><th>Time</th><th>Device</th><th>Connection</th><th>Kind</th><th>Summary</th><th>Packet</th></tr>\n"
        for failure in report.failures {
            let severity = Timeline.failureEvent(failure).severity
            let device = failure.deviceID.map { titles[$0] ?? $0.description } ?? "—"
            html += "<tr class=\"\(severity.name)\"><td><a href=\"#timeline\" data-t=\"\(failure.timeUs - start)\">+"
                + Timestamp.relativeSeconds(failure.timeUs - start) + "</a></td><td>\(HTMLText.escape(device))</td>"
                + "<td>\(failure.connectionID?.description ?? "—")</td><td>\(failure.kind.rawValue)</td>"
                + "<td>\(HTMLText.escape(failure.summary))</td><td>\(failure.record.map { "frame \($0) in Wireshark" } ?? "—")</td></tr>\n"
        }
        return html + "</table></section>\n"
    }

    /// Warnings and info, each row a run of one notice with its count.
    static func notices(_ report: SessionReport, start: Int64) -> String {
        guard !report.notices.isEmpty else { return "" }
        let titles = Dictionary(report.devices.map { ($0.id, TimelineFormat.title($0)) }, uniquingKeysWith: { a, _ in a })
        var html = "<section id=\"notices\"><h2>Notices (\(report.notices.reduce(0) { $0 + $1.count }))</h2>\n"
        html += "<table class=\"list\"><tr><th>Time</th><th>Device</th><th>Connection</th><th>Kind</th><th>Severity</th>"
            + "<th>Summary</th><th>Count</th></tr>\n"
        for notice in report.notices {
            let device = notice.deviceID.map { titles[$0] ?? $0.description } ?? "—"
            html += "<tr class=\"\(notice.severity == .warning ? "warning" : "normal")\"><td><a href=\"#timeline\" data-t=\""
                + "\(notice.timeUs - start)\">+" + Timestamp.relativeSeconds(notice.timeUs - start) + "</a></td>"
                + "<td>\(HTMLText.escape(device))</td><td>\(notice.connectionID?.description ?? "—")</td>"
                + "<td>\(notice.kind.rawValue)</td><td>\(notice.severity.rawValue)</td>"
                + "<td>\(HTMLText.escape(notice.summary))</td><td>\(notice.count)</td></tr>\n"
        }
        return html + "</table></section>\n"
    }

    static func devices(_ report: SessionReport) -> String {
        var html = "<section id=\"devices\"><h2>Devices (\(report.devices.count))</h2>\n"
        for device in report.devices {
            html += "<details\(device.gatt.isEmpty ? "" : " open")><summary>\(HTMLText.escape(TimelineFormat.title(device)))</summary>\n"
            html += "<p>" + HTMLText.escape(device.addresses.map { "\($0.address) (\($0.type.rawValue))" }.joined(separator: ", "))
            if let identity = device.identity { html += " — identity " + HTMLText.escape("\(identity.value) (\(identity.source))") }
            if !device.companyIDs.isEmpty {
                html += " — " + HTMLText.escape(device.companyIDs.map { AssignedNumbers.companyName($0) ?? Hex.code($0, width: 4) }
                    .joined(separator: ", "))
            }
            html += " — \(device.advertisements) advertisements"
            if !device.connectionIDs.isEmpty { html += ", connections " + device.connectionIDs.map(\.description).joined(separator: ", ") }
            html += "</p>\n"
            if device.gatt.isEmpty {
                html += "<p>No GATT discovery seen.</p>\n"
            } else {
                html += "<table class=\"list gatt\"><tr><th>Handle</th><th>Kind</th><th>UUID</th><th>Name</th><th>Properties</th></tr>\n"
                for attribute in device.gatt {
                    html += "<tr class=\"\(attribute.kind.rawValue)\"><td>\(Hex.code(attribute.handle, width: 4))</td>"
                        + "<td>\(attribute.kind.rawValue)</td><td>\(attribute.uuid)</td>"
                        + "<td>\(HTMLText.escape(AssignedNumbers.name(for: attribute.uuid) ?? ""))</td>"
                        + "<td>\(HTMLText.escape(attribute.properties.joined(separator: ", ")))</td></tr>\n"
                }
                html += "</table>\n"
            }
            html += "</details>\n"
        }
        return html + "</section>\n"
    }
}

/// Makes untrusted text inert in HTML text and attribute values: control characters shown as
/// escapes (as on the terminal), then `& < > " '` as character references.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var out = ""
        for character in TerminalText.escape(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
