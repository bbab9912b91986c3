import Foundation

/// A local-name rule: a prefix, or a regular expression (ICU syntax, via NSRegularExpression).
/// Backtracking regular expressions can be slow on hostile input, so both sides are capped:
/// patterns at 256 characters (checked at load) and names at 248 bytes, the longest a Complete
/// Local Name can be (Core v5.4 Vol 3 Part C §12.1); longer names never match.
public enum NameMatcher: Sendable, Equatable {
    case prefix(String)
    case regex(String)

    public static let maxPatternLength = 256
    public static let maxNameBytes = 248

    /// Nil when `pattern` compiles and fits the cap; otherwise why not.
    static func problem(pattern: String) -> String? {
        guard pattern.count <= maxPatternLength else { return "pattern longer than \(maxPatternLength) characters" }
        do {
            _ = try NSRegularExpression(pattern: pattern)
            return nil
        } catch {
            return "not a valid regular expression"
        }
    }

    public func matches(_ name: String) -> Bool { firstMatch(name) != nil }

    /// The match's groups (index 0: the whole match), or nil when it does not match.
    func firstMatch(_ name: String) -> [String?]? {
        guard name.utf8.count <= Self.maxNameBytes else { return nil }
        switch self {
        case .prefix(let prefix):
            return name.hasPrefix(prefix) ? [prefix] : nil
        case .regex(let pattern):
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
            let whole = NSRange(name.startIndex..., in: name)
            guard let match = regex.firstMatch(in: name, range: whole) else { return nil }
            return (0..<match.numberOfRanges).map { i in
                Range(match.range(at: i), in: name).map { String(name[$0]) }
            }
        }
    }
}
