/// Why a capture or a profile could not be read: one line naming the file and, where it applies,
/// the record and byte offset, or the line and key.
public struct BLEDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    init(_ message: String) { self.message = message }
}
