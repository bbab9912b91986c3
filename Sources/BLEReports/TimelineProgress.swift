/// The progress line drawn while a capture is read: `[#######.............]  35%  12.3 of 35.0 MB`.
/// Redraws are throttled to one per 100 ms and only when the shown percentage changes.
public struct TimelineProgress: Sendable {
    /// Smaller files are read too fast for a bar to help.
    public static let minimumBytes = 8 << 20
    static let width = 30
    static let intervalUs: Int64 = 100_000

    public let totalBytes: Int
    private var lastPercent = -1
    private var lastDrawUs: Int64?
    public private(set) var drawn = false

    public init(totalBytes: Int) { self.totalBytes = max(totalBytes, 1) }

    /// The line to draw for a reader at `offset`, or nil when nothing needs redrawing.
    public mutating func update(offset: Int, nowUs: Int64) -> String? {
        let percent = min(100, max(0, offset) / max(totalBytes / 100, 1))
        guard percent != lastPercent, lastDrawUs.map({ nowUs - $0 >= Self.intervalUs }) ?? true else { return nil }
        lastPercent = percent
        lastDrawUs = nowUs
        drawn = true
        let filled = percent * Self.width / 100
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: Self.width - filled) + "] "
            + "\(percent)%".padding(toLeft: 4) + "  " + Self.megabytes(min(offset, totalBytes)) + " of "
            + Self.megabytes(totalBytes) + " MB"
    }

    static func megabytes(_ bytes: Int) -> String { "\(bytes / 1_000_000).\(bytes / 100_000 % 10)" }
}
