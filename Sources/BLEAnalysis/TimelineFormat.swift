/// Small text pieces timelines show: durations and counts. The vendor command and failure runs the
/// analysis keeps write them in their summaries; Reports extends it with the renderers' other pieces.
public enum TimelineFormat {
    /// `850 µs`, `7.5 ms`, `30 ms`, `1.78 s`, `148 s`.
    public static func duration(_ us: Int64) -> String {
        let us = max(us, 0)
        if us < 1_000 { return "\(us) µs" }
        if us < 100_000 { return trimmed(Double(us) / 1_000, decimals: 1) + " ms" }
        if us < 1_000_000 { return "\(us / 1_000) ms" }
        if us < 100_000_000 { return trimmed(Double(us) / 1_000_000, decimals: 2) + " s" }
        return "\(us / 1_000_000) s"
    }

    /// `1 device`, `3 devices`: a count with its noun, plural but for one.
    public static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    public static func trimmed(_ value: Double, decimals: Int) -> String {
        let scale = decimals == 1 ? 10.0 : 100.0
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        return String(rounded)
    }
}
