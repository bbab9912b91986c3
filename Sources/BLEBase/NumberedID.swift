/// An id the report writes as a letter and a number (`C3`, `D2`): given in the order things first
/// appeared in the capture, from 1. Compared and sorted by its number, never by its text.
public protocol NumberedID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The letter written before the number (ASCII).
    static var letter: Character { get }
    var number: Int { get }
    init(number: Int)
}

extension NumberedID {
    /// Reads the id as a user types it on the command line (`C3` or `c3`); nil for anything else.
    public init?(_ text: some StringProtocol) {
        guard let first = text.first, first == Self.letter || first == Character(Self.letter.lowercased()), text.count > 1,
              text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int(text.dropFirst()), number >= 1 else { return nil }
        self.init(number: number)
    }

    public var description: String { "\(Self.letter)\(number)" }

    public static func < (a: Self, b: Self) -> Bool { a.number < b.number }
}

/// A connection's id (`C3`): its number in the order the capture's connections began.
public struct ConnectionID: NumberedID {
    public static let letter: Character = "C"
    public var number: Int
    public init(number: Int) { self.number = number }
}

/// A device's id (`D2`): its number in the order the capture first showed one of its addresses.
public struct DeviceID: NumberedID {
    public static let letter: Character = "D"
    public var number: Int
    public init(number: Int) { self.number = number }
}
