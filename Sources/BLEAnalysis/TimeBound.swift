/// A `--since`/`--until` bound: seconds from the first record (`12.5`, `+12.5`, `1500ms`) or a
/// UTC time (`2024-04-25T08:23:55.5Z`).
public enum TimeBound: Sendable, Equatable {
    case relative(Int64)
    case absolute(Int64)

    public init?(_ text: String) {
        if let absolute = Self.parseISO8601(text) {
            self = .absolute(absolute)
            return
        }
        var body = Substring(text)
        if body.hasPrefix("+") { body = body.dropFirst() }
        var scale = 1_000_000.0
        if body.hasSuffix("ms") {
            body = body.dropLast(2)
            scale = 1_000
        } else if body.hasSuffix("s") {
            body = body.dropLast()
        }
        guard let value = Double(body), value.isFinite, value >= 0, value < 1e9 else { return nil }
        self = .relative(Int64((value * scale).rounded()))
    }

    /// Why `since`…`until` selects nothing (`since` after `until`; the bounds are inclusive), or
    /// nil. A relative and an absolute bound compare only once the capture's first time,
    /// `startUs`, is known; before that they pass.
    public static func emptyWindow(since: TimeBound?, until: TimeBound?, startUs: Int64? = nil) -> String? {
        guard let since, let until else { return nil }
        let low: Int64, high: Int64
        switch (since, until, startUs) {
        case let (.relative(a), .relative(b), _), let (.absolute(a), .absolute(b), _): (low, high) = (a, b)
        case let (_, _, start?): (low, high) = (since.resolve(start: start), until.resolve(start: start))
        default: return nil
        }
        guard low > high else { return nil }
        return "--since is after --until: the time window is empty"
    }

    public func resolve(start: Int64) -> Int64 {
        switch self {
        case .relative(let us): start + us
        case .absolute(let us): us
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.ffffff][Z]`, always UTC.
    static func parseISO8601(_ text: String) -> Int64? {
        var body = Substring(text)
        if body.hasSuffix("Z") { body = body.dropLast() }
        let dateAndTime = body.split(separator: "T", omittingEmptySubsequences: false)
        guard dateAndTime.count == 2 else { return nil }
        let date = dateAndTime[0].split(separator: "-", omittingEmptySubsequences: false).map { Int64($0) }
        let clock = dateAndTime[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, clock.count == 3, let year = date[0], let month = date[1], let day = date[2],
              let hour = Int64(clock[0]), let minute = Int64(clock[1]),
              (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (1970...9999).contains(year) else { return nil }
        let secondParts = clock[2].split(separator: ".", omittingEmptySubsequences: false)
        guard let second = secondParts.first.flatMap({ Int64($0) }), (0...60).contains(second), secondParts.count <= 2
        else { return nil }
        var micros: Int64 = 0
        if secondParts.count == 2 {
            let digits = secondParts[1].prefix(6)
            guard !digits.isEmpty, let fraction = Int64(digits) else { return nil }
            micros = fraction * Int64([1, 100_000, 10_000, 1_000, 100, 10, 1][digits.count])
        }
        // Days from civil (Howard Hinnant's public-domain algorithm, proleptic Gregorian).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000_000) + micros
    }
}
