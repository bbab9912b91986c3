/// A connection's id: its number in the order the capture's connections began, from 1, written
/// `Cn` wherever it is shown. Compared and sorted by its number, never by its text.
package struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var number: Int

    package init(number: Int) { self.number = number }

    package var description: String { "C\(number)" }

    package static func < (a: Self, b: Self) -> Bool { a.number < b.number }
}
