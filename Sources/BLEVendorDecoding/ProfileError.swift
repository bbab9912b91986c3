/// A profile that does not load: the file, the line (1-based, when known), the key path
/// (`framing.length.offset`) and what is wrong. Printed `lock.yaml:12: framing.length.offset: must be ≥ 0`.
public struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var key: String
    public var message: String
    /// True when the file could not be read at all, as against read and found wrong.
    public var unreadable = false

    public init(file: String, line: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
