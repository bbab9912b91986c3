import BLEBase
import Yams

/// A YAML node with the key path that reached it, turning every conversion failure into a
/// `ProfileError` that names the file, line and key.
struct YAMLCursor {
    let node: Node
    let path: String
    let file: String

    func error(_ message: String) -> ProfileError {
        ProfileError(file: file, line: node.mark?.line, key: path, message: message)
    }

    /// A plain empty value, `~` or `null` (the tag YAML resolves, not the scalar's unresolved one).
    var isNull: Bool { node.scalar != nil && node.tag == Tag(.null) }

    func string() throws(ProfileError) -> String {
        guard let scalar = node.scalar else { throw error("must be a single value, not a list or mapping") }
        return scalar.string
    }

    /// A decimal or `0x` hex integer (optionally negative) within `range`.
    func int(_ range: ClosedRange<Int>) throws(ProfileError) -> Int {
        let text = try string()
        guard let value = Self.parseInt(text) else { throw error("'\(text)' is not an integer") }
        guard range.contains(value) else {
            if range.upperBound == Int.max { throw error("must be ≥ \(range.lowerBound)") }
            throw error("must be in \(range.lowerBound)...\(range.upperBound), not \(value)")
        }
        return value
    }

    static func parseInt(_ text: String) -> Int? {
        var t = Substring(text.trimmingCharacters(in: .whitespaces))
        var negative = false
        if t.hasPrefix("-") { negative = true; t = t.dropFirst() } else if t.hasPrefix("+") { t = t.dropFirst() }
        let magnitude: Int?
        if t.hasPrefix("0x") || t.hasPrefix("0X") { magnitude = Int(t.dropFirst(2), radix: 16) } else { magnitude = Int(t) }
        guard let magnitude else { return nil }
        return negative ? -magnitude : magnitude
    }

    func bool() throws(ProfileError) -> Bool {
        switch try string().lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let other: throw error("'\(other)' is not true or false")
        }
    }

    func uuid() throws(ProfileError) -> BluetoothUUID {
        let text = try string()
        guard let uuid = BluetoothUUID(text) else { throw error("'\(text)' is not a UUID (FFE0 or 8-4-4-4-12 form)") }
        return uuid
    }

    /// Bytes: a list of integers 0...255, or hex text (`aa55`, `0xAA`).
    func bytes() throws(ProfileError) -> [UInt8] {
        if node.sequence != nil {
            var out: [UInt8] = []
            for item in try list() { out.append(UInt8(try item.int(0...255))) }
            return out
        }
        var text = try string()
        if text.hasPrefix("0x") || text.hasPrefix("0X") { text.removeFirst(2) }
        guard let bytes = Hex.bytes(text) else { throw error("'\(text)' is neither hex bytes nor a list of bytes") }
        return bytes
    }

    func list() throws(ProfileError) -> [YAMLCursor] {
        guard let sequence = node.sequence else { throw error("must be a list") }
        return sequence.enumerated().map { YAMLCursor(node: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// One word of `choices`.
    func choice(_ choices: [String]) throws(ProfileError) -> String {
        let text = try string()
        guard choices.contains(text) else { throw error("'\(text)' is not one of \(choices.joined(separator: ", "))") }
        return text
    }

    func expression(requires available: Set<Expression.Variable>) throws(ProfileError) -> Expression {
        let text = try string()
        let parsed: Expression
        do {
            parsed = try Expression(parsing: text)
        } catch {
            throw self.error("expression \(error)")
        }
        let missing = parsed.variables.subtracting(available).map(\.rawValue).sorted()
        guard missing.isEmpty else {
            throw self.error("expression uses \(missing.joined(separator: ", ")), which this profile does not define here")
        }
        return parsed
    }

    func mapping() throws(ProfileError) -> YAMLMapping { try YAMLMapping(self) }
}

/// A mapping whose keys are taken one by one; `finish()` rejects the keys nobody took, so a
/// typo is an error rather than a silently ignored setting.
struct YAMLMapping {
    let cursor: YAMLCursor
    private var pairs: [(key: String, keyNode: Node, value: Node)] = []
    private var taken: Set<String> = []

    init(_ cursor: YAMLCursor) throws(ProfileError) {
        guard let mapping = cursor.node.mapping else { throw cursor.error("must be a mapping of keys to values") }
        self.cursor = cursor
        for (key, value) in mapping {
            guard let name = key.scalar?.string else {
                throw ProfileError(file: cursor.file, line: key.mark?.line, key: cursor.path, message: "keys must be plain words")
            }
            if pairs.contains(where: { $0.key == name }) {
                throw ProfileError(file: cursor.file, line: key.mark?.line, key: child(name), message: "duplicate key")
            }
            pairs.append((name, key, value))
        }
    }

    private func child(_ key: String) -> String { cursor.path.isEmpty ? key : "\(cursor.path).\(key)" }

    var keys: [String] { pairs.map(\.key) }

    mutating func optional(_ key: String) -> YAMLCursor? {
        taken.insert(key)
        guard let pair = pairs.first(where: { $0.key == key }) else { return nil }
        let c = YAMLCursor(node: pair.value, path: child(key), file: cursor.file)
        return c.isNull ? nil : c
    }

    mutating func required(_ key: String) throws(ProfileError) -> YAMLCursor {
        guard let value = optional(key) else { throw cursor.error("missing key '\(key)'") }
        return value
    }

    /// Every key of the mapping, taken (for maps whose keys are data, like command names).
    mutating func all() -> [(key: String, cursor: YAMLCursor)] {
        pairs.map { pair in
            taken.insert(pair.key)
            return (pair.key, YAMLCursor(node: pair.value, path: child(pair.key), file: cursor.file))
        }
    }

    func finish() throws(ProfileError) {
        guard let unknown = pairs.first(where: { !taken.contains($0.key) }) else { return }
        let known = taken.sorted().joined(separator: ", ")
        throw ProfileError(file: cursor.file, line: unknown.keyNode.mark?.line, key: child(unknown.key),
                           message: "unknown key (expected one of: \(known))")
    }
}
