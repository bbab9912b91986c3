/// A connection's id: its number in the order the capture's connections began, from 1, written
/// `Cn` wherever it is shown. Compared and sorted by its number, never by its text.
public struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var number: Int

    public init(number: Int) { self.number = number }

    public var description: String { "C\(number)" }

    public static func < (a: Self, b: Self) -> Bool { a.number < b.number }
}
