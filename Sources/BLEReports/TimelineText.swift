import Foundation
import BLEAnalysis
import BLEAssignedNumbers
import BLEBase
import BLESessions

/// How times are printed: seconds since the first record, UTC, or since the previous line of
/// the same device.
public enum TimelineTimeFormat: String, Sendable, CaseIterable { case relative, absolute, delta }

/// The terminal timeline `bledecode CAPTURE` prints: per device, one line per meaningful event;
/// failures red (✗), warnings yellow (!), info only with `-v`, a closing summary. Every piece of text from
/// the capture goes through `TerminalText` before it is styled.
public struct TimelineText {
    public var style: Style
    public var time: TimelineTimeFormat
    /// Record numbers on every line and the transactions under each summary.
    public var verbose: Bool

    public init(style: Style, time: TimelineTimeFormat = .relative, verbose: Bool = false) {
        self.style = style
        self.time = time
        self.verbose = verbose
    }

    public func render(_ analysis: Analysis, timeline: Timeline) -> String {
        var text = ""
        render(analysis, timeline: timeline) { text += $0 }
        return text
    }

    /// Hands the timeline to `write` a line at a time, each with its newline, so that a long one
    /// is never held whole (a long capture's runs to megabytes).
    public func render(_ analysis: Analysis, timeline: Timeline, to write: (String) -> Void) {
        render(analysis, startUs: timeline.startUs, lanes: timeline.lanes, host: timeline.host, to: write)
    }

    /// Builds, filters and writes one lane at a time: only one device's events are held.
    public func render(_ analysis: Analysis, building builder: TimelineBuilder, filter: TimelineFilter,
                       to write: (String) -> Void) {
        render(analysis, startUs: builder.startUs, lanes: builder.lanes(filter), host: builder.host(filter), to: write)
    }

    private func render(_ analysis: Analysis, startUs: Int64, lanes: some Sequence<TimelineLane>, host: [TimelineEvent],
                        to write: (String) -> Void) {
        let report = analysis.report
        func line(_ text: String) { write(text + "\n") }
        let span = report.stats.lastTimeUs.map { " over " + TimelineFormat.duration($0 - startUs) } ?? ""
        line(style.bold(TerminalText.escape(analysis.info.path)) + ": " + analysis.info.linkTypeDescription
             + ", \(report.stats.records) records" + span
             + (report.stats.firstTimeUs.map { ", from " + Timestamp.iso8601(unixMicroseconds: $0) } ?? ""))
        // Devices only seen advertising (a busy room's phones, watches, beacons) get one line each
        // after the devices something happened with, unless --verbose asks for every burst.
        var advertisingOnly: [String] = []
        for lane in lanes {
            if !verbose && lane.events.allSatisfy({
                $0.kind == .advertising || $0.kind == .addressChange || ($0.kind == .notice && $0.severity == .normal)
            }) {
                advertisingOnly.append("  " + style.bold(TerminalText.escape(lane.title)) + "  "
                                       + TerminalText.escape(facts(lane.device)) + "  " + advertisingSummary(lane.device, start: startUs))
                continue
            }
            line("")
            line(style.bold(TerminalText.escape(lane.title)) + "  " + TerminalText.escape(facts(lane.device)))
            events(lane.events, start: startUs, to: line)
        }
        if !advertisingOnly.isEmpty {
            line("")
            line(style.bold("Only advertising (" + TimelineFormat.counted(advertisingOnly.count, "device") + ")"))
            advertisingOnly.forEach(line)
        }
        let host = verbose ? host : host.filter { !($0.kind == .notice && $0.severity == .normal) }
        if !host.isEmpty {
            line("")
            line(style.bold("Host and capture"))
            events(host, start: startUs, to: line)
        }
        line("")
        line(closingSummary(report))
    }

    /// `312 advertisements in 6 bursts, +35.67…+175.01 s, RSSI -98…-56 dBm`.
    func advertisingSummary(_ device: Device, start: Int64) -> String {
        let bursts = device.addresses.reduce(0) { $0 + $1.bursts.count }
        var text = TimelineFormat.counted(device.advertisements, "advertisement")
        if bursts > 1 { text += " in \(bursts) bursts" }
        if let first = device.firstSeenUs, let last = device.lastSeenUs {
            text += first == last ? ", at " + stamp(first, start: start, previous: start)
                : ", " + stamp(first, start: start, previous: start).trimmingCharacters(in: .whitespaces) + "…"
                    + stamp(last, start: start, previous: start).trimmingCharacters(in: .whitespaces)
        }
        let rssi = device.addresses.compactMap(\.rssi)
        if let low = rssi.map(\.min).min(), let high = rssi.map(\.max).max() {
            text += low == high ? ", RSSI \(low) dBm" : ", RSSI \(low)…\(high) dBm"
        }
        return text
    }

    /// Addresses, identity, companies, connections: what tells this device apart.
    func facts(_ device: Device) -> String {
        var parts = [device.addresses.map { "\($0.address) (\($0.type.rawValue))" }.joined(separator: ", ")]
        if device.names.count > 1 { parts.append("also named " + device.names.dropFirst().map { TimelineFormat.quoted($0) }
            .joined(separator: ", ")) }
        if let identity = device.identity { parts.append("identity \(identity.value) (\(identity.source))") }
        if !device.companyIDs.isEmpty {
            parts.append(device.companyIDs.map { AssignedNumbers.companyName($0) ?? Hex.code($0, width: 4) }
                .joined(separator: ", "))
        }
        if !device.connectionIDs.isEmpty { parts.append("connections " + device.connectionIDs.map(\.description).joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }

    func events(_ events: [TimelineEvent], start: Int64, to line: (String) -> Void) {
        var previous = start
        for event in events where verbose || !event.verboseOnly {
            // Info notices (stack housekeeping) only when asked for.
            if !verbose && event.kind == .notice && event.severity == .normal { continue }
            let stamp = event.timed ? self.stamp(event.timeUs, start: start, previous: previous) : ""
            if event.timed { previous = event.timeUs }
            var text = TerminalText.escape(event.text)
            if verbose && !event.records.isEmpty { text += "  " + records(event.records) }
            line("  " + pad(stamp) + "  " + (event.connectionID?.description ?? "").padding(to: 4) + marker(event.severity)
                 + paint(text, event.severity))
            guard verbose else { continue }
            // Transactions under a summary are not in line order: with delta times they show
            // their time from the first record instead.
            let detailFormat = TimelineText(style: style, time: time == .delta ? .relative : time, verbose: verbose)
            for detail in event.details {
                let text = TerminalText.escape(detail.text) + "  " + records(detail.records)
                line("  " + pad(detailFormat.stamp(detail.timeUs, start: start, previous: previous)) + "      "
                     + marker(detail.severity) + "  " + paint(text, detail.severity))
            }
        }
    }

    func stamp(_ us: Int64, start: Int64, previous: Int64) -> String {
        switch time {
        // A signed time, never `+-0.6` (a time before the start cannot come from the report, which
        // counts from the earliest record, but a caller's start may be later).
        case .relative: (us < start ? "" : "+") + Timestamp.relativeSeconds(us - start)
        case .absolute: Timestamp.iso8601(unixMicroseconds: us)
        case .delta: "Δ" + Timestamp.relativeSeconds(us - previous)
        }
    }

    func pad(_ stamp: String) -> String { stamp.padding(toLeft: time == .absolute ? 27 : 11) }

    func records(_ numbers: [Int]) -> String { numbers.map { "#\($0)" }.joined(separator: " ") }

    func marker(_ severity: TimelineEvent.Severity) -> String {
        switch severity {
        case .normal: "  "
        case .warning: style.yellow("!") + " "
        case .error: style.red("✗") + " "
        }
    }

    func paint(_ text: String, _ severity: TimelineEvent.Severity) -> String {
        switch severity {
        case .normal: text
        case .warning: style.yellow(text)
        case .error: style.red(text)
        }
    }

    /// `5 devices, 6 connections (1 still up at the end), 11 failures: att-error 2, …`. Failures
    /// are all counted, also those past the listing cap.
    func closingSummary(_ report: SessionReport) -> String {
        let byKind = report.stats.failuresByKind
        let failures = report.stats.failures
        let dangling = report.connections.filter(\.dangling).count
        return TimelineFormat.counted(report.devices.count, "device") + ", "
            + TimelineFormat.counted(report.connections.count, "connection")
            + (dangling > 0 ? " (\(dangling) still up at the end)" : "")
            + (report.attempts.isEmpty ? "" : ", " + TimelineFormat.counted(report.attempts.count, "attempt") + " that did not connect")
            + ", " + TimelineFormat.counted(failures, "failure")
            + (byKind.isEmpty ? "" : ": " + byKind.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
                .joined(separator: ", "))
            + (report.failures.count < failures
               ? " (\(report.failures.count) listed: past \(SessionAnalyzer.failuresListedPerKind) of a kind, only counted)" : "")
            + noticeSummary(report)
            + notAnalysed(report.stats)
            + (TimelineFormat.decodeIssues(report.stats).map { "; decode issues: " + $0 + " (`bledecode packets` marks them)" } ?? "")
    }

    /// `; 2 warnings (dangling-connection 1, …), 5 info (-v shows them)`.
    func noticeSummary(_ report: SessionReport) -> String {
        var warnings: [FailureKind: Int] = [:], info = 0
        for notice in report.notices {
            if notice.severity == .warning { warnings[notice.kind, default: 0] += notice.count } else { info += notice.count }
        }
        var text = ""
        if !warnings.isEmpty {
            let total = warnings.values.reduce(0, +)
            text += "; " + TimelineFormat.counted(total, "warning") + ": "
                + warnings.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        }
        if info > 0 { text += "; \(info) info" + (verbose ? "" : " (-v shows them)") }
        return text
    }

    /// `; not analysed: 16 L2CAP PDUs on channels bledecode does not decode (…)`; empty when
    /// everything was analysed.
    func notAnalysed(_ stats: CaptureStatistics) -> String {
        let parts = TimelineFormat.notAnalysed(stats)
        return parts.isEmpty ? "" : "; not analysed: " + parts.joined(separator: ", ")
    }
}

extension String {
    /// Left-aligned in `width` columns (longer text is kept whole).
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    /// Right-aligned in `width` columns.
    func padding(toLeft width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
