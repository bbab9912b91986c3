/// A profile that does not load: the file, the line (1-based, when known), the key path
/// (`framing.length.offset`) and what is wrong. Printed `lock.yaml:12: framing.length.offset: must be ≥ 0`.
package struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var key: String
    package var message: String

    package init(file: String, line: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    package var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
