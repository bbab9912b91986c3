import AssignedNumbers
import BLEBase
import HCI
import Sessions

/// ANSI styling that is off unless the output is a terminal and the user allows colour
/// (https://no-color.org, `--color`).
public struct Style: Sendable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }

    func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
}

/// The per-device summary and failure list `bledecode CAPTURE` prints. Every piece of text from
/// the capture goes through `TerminalText` before it is styled.
public struct TextSummary {
    public var style: Style

    public init(style: Style) { self.style = style }

    public func render(_ analysis: Analysis) -> String {
        let report = analysis.report
        let start = report.stats.firstTimeUs ?? 0
        func at(_ us: Int64) -> String { "+" + Timestamp.relativeSeconds(us - start) }
        var lines: [String] = []
        let span = report.stats.lastTimeUs.map { " over " + Timestamp.relativeSeconds($0 - start) + " s" } ?? ""
        lines.append(style.bold(TerminalText.escape(analysis.info.path)) + ": " + analysis.info.linkTypeDescription
                     + ", \(report.stats.records) records" + span
                     + (report.stats.firstTimeUs.map { ", from " + Timestamp.iso8601(unixMicroseconds: $0) } ?? ""))

        let devicesByID = Dictionary(report.devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        lines.append("")
        lines.append(style.bold("Devices (\(report.devices.count))"))
        for device in report.devices {
            lines.append("  " + deviceLine(device))
        }
        lines.append("")
        lines.append(style.bold("Connections (\(report.connections.count))"))
        for connection in report.connections {
            let name = connection.deviceID.flatMap { devicesByID[$0] }.map(deviceName) ?? "unknown device"
            let link = connection.handle.map { "handle \(Hex.code($0, width: 4))" }
                ?? connection.accessAddress.map { "AA \(Hex.code($0, width: 8))" } ?? ""
            var line = "  \(connection.id)  \(name)  \(link)  \(at(connection.startUs))"
            line += "  MTU \(connection.mtu)"
            if let interval = connection.parameters.last?.intervalUs {
                line += "  interval \(Double(interval / 10) / 100) ms"
            }
            if let end = connection.endUs {
                let reason = connection.disconnectReason.map { "\($0.name) (\(Hex.code($0.rawValue)))" } ?? "end not captured"
                let text = "ended \(at(end)) after \(Timestamp.relativeSeconds(end - connection.startUs)) s: \(reason)"
                let abnormal = connection.disconnectReason.map { ![0x13, 0x15, 0x16].contains($0.rawValue) } ?? false
                line += "  " + (abnormal ? style.red(text) : text)
            } else {
                line += "  " + style.yellow("still up when the capture ended")
            }
            lines.append(line)
            let failed = connection.transactionTotals.byKey.values.reduce(0) { $0 + $1.errors + $1.unanswered }
            let total = connection.transactionTotals.byKey.values.reduce(0) { $0 + $1.count }
            if total > 0 {
                lines.append("      \(total) ATT transactions" + (failed > 0 ? ", \(failed) not ok" : "")
                             + (connection.subscriptions.isEmpty ? "" : ", subscribed to "
                                + connection.subscriptions.map { TerminalText.escape($0.characteristic) }.joined(separator: ", ")))
            }
        }
        let cancelled = report.attempts.filter { $0.outcome == .cancelled }
        if !cancelled.isEmpty {
            let waits = cancelled.compactMap { attempt in attempt.endUs.map { $0 - attempt.createUs } }
            lines.append("  \(cancelled.count) connection attempt(s) cancelled by the host"
                         + (waits.max().map { " (longest wait \(Timestamp.relativeSeconds($0)) s)" } ?? ""))
        }

        lines.append("")
        lines.append(style.bold("Failures (\(report.failures.count))"))
        for failure in report.failures {
            let who = [failure.deviceID, failure.connectionID].compactMap { $0 }.joined(separator: " ")
            let text = "\(failure.kind.rawValue)  " + TerminalText.escape(failure.summary)
            let styled = failure.kind == .danglingConnection ? style.yellow(text) : style.red(text)
            lines.append("  \(at(failure.timeUs))  " + (who.isEmpty ? "" : who + "  ") + styled)
        }
        var byKind: [String: Int] = [:]
        for failure in report.failures { byKind[failure.kind.rawValue, default: 0] += 1 }
        lines.append("")
        lines.append("\(report.devices.count) devices, \(report.connections.count) connections, "
                     + "\(report.failures.count) failures"
                     + (byKind.isEmpty ? "" : ": " + byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                        .joined(separator: ", ")))
        return lines.joined(separator: "\n") + "\n"
    }

    func deviceName(_ device: Device) -> String {
        let name = device.names.first.map { TerminalText.quoted($0) }
        return ([device.id] + [name].compactMap { $0 }).joined(separator: " ")
    }

    func deviceLine(_ device: Device) -> String {
        var parts = [deviceName(device)]
        parts.append(device.addresses.map { "\($0.address) (\($0.type.rawValue))" }.joined(separator: ", "))
        if let identity = device.identity { parts.append("identity " + TerminalText.escape(identity.value)) }
        if !device.companyIDs.isEmpty {
            parts.append(device.companyIDs.map { AssignedNumbers.companyName($0) ?? Hex.code($0, width: 4) }
                .joined(separator: ", "))
        }
        if device.advertisements > 0 {
            var adv = "\(device.advertisements) adv"
            let rssi = device.addresses.compactMap(\.rssi)
            if let low = rssi.map(\.min).min(), let high = rssi.map(\.max).max() {
                adv += " RSSI \(low)…\(high) dBm"
            }
            parts.append(adv)
        }
        if !device.connectionIDs.isEmpty { parts.append("connections " + device.connectionIDs.joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }
}
