/// A connection's id: its number in the order the capture's connections began, from 1, written
/// `Cn` wherever it is shown. Compared and sorted by its number, never by its text.
public struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var number: Int

    public init(number: Int) { self.number = number }

    /// Reads `C3` (or `c3`), as a user types it on the command line; nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard let first = text.first, first == "C" || first == "c", text.count > 1,
              text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int(text.dropFirst()), number >= 1 else { return nil }
        self.number = number
    }

    public var description: String { "C\(number)" }

    public static func < (a: Self, b: Self) -> Bool { a.number < b.number }
}
