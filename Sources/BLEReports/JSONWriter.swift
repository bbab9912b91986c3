import BLEBase

/// Writes JSON text directly into a byte buffer: one pass, keys in the order written, no
/// intermediate tree (Foundation's encoder is slow for millions of packets and reorders keys).
///
/// Strings are escaped per RFC 8259 §7, plus `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX` so
/// that untrusted text from a capture stays inert when the JSON is embedded in an HTML page or
/// JavaScript.
public struct JSONWriter {
    /// The text written so far; a copied writer copies it when it writes on (`unique`).
    private var out: JSONBuffer
    /// Whether the next value in the current object or array comes after another.
    private var needsComma = false
    /// `needsComma` of the enclosing objects and arrays, innermost last.
    private var enclosingNeedsComma: [Bool] = []

    public init(capacity: Int = 4096) { out = JSONBuffer(capacity: capacity) }

    /// The text written so far.
    public var bytes: [UInt8] { out.bytes }
    /// How many bytes `bytes` holds.
    public var count: Int { out.count }

    /// Hands over the text written so far and starts an empty buffer (the document's nesting is
    /// kept), so that a long document can be streamed out in pieces.
    public mutating func takeBytes() -> [UInt8] {
        let taken = out.bytes
        unique()
        out.removeAll()
        return taken
    }

    /// Every write starts here or in `end`: a writer whose buffer a copy shares takes its own.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&out) { out = out.copy() }
    }

    private mutating func separator() {
        unique()
        if needsComma { out.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    private mutating func begin(_ bracket: UInt8) {
        separator()
        out.append(bracket)
        enclosingNeedsComma.append(needsComma)
        needsComma = false
    }

    private mutating func end(_ bracket: UInt8) {
        unique()
        needsComma = enclosingNeedsComma.removeLast()
        out.append(bracket)
    }

    public mutating func beginObject() { begin(UInt8(ascii: "{")) }
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    public mutating func beginArray() { begin(UInt8(ascii: "[")) }
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// Writes `"key":` for one of the report's own names, copied without an escape scan (a
    /// name must need no escape); the next value call writes the value without a comma.
    public mutating func key(_ key: StaticString) {
        assert(key.withUTF8Buffer { !$0.contains(where: Self.mayNeedEscape) }, "JSON names need no escape")
        separator()
        out.append(UInt8(ascii: "\""))
        out.append(key)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// `key(_:)` for a name taken from data (a dictionary's key, a decoded field's name): escaped.
    public mutating func dynamicKey(_ key: String) {
        separator()
        appendString(key)
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) { separator(); appendString(value) }

    /// `bytes` as a string of lower-case hex digits (`Hex.string`), written without a String.
    public mutating func hexString<Bytes: Collection<UInt8>>(_ value: Bytes) {
        separator()
        out.append(UInt8(ascii: "\""))
        Hex.append(value, to: &out)
        out.append(UInt8(ascii: "\""))
    }
    public mutating func int<T: BinaryInteger>(_ value: T) {
        separator()
        if let small = Int64(exactly: value) {
            DecimalText.append(small, to: &out)
        } else {
            var text = String(value)
            text.withUTF8 { out.append(contentsOf: $0) }
        }
    }
    public mutating func bool(_ value: Bool) { separator(); out.append(value ? "true" : "false") }
    /// `"C3"`, `"D2"`, written without a String.
    public mutating func id(_ value: some NumberedID) {
        separator()
        out.append(UInt8(ascii: "\""))
        out.append(type(of: value).letter.asciiValue ?? UInt8(ascii: "?"))
        DecimalText.append(Int64(value.number), to: &out)
        out.append(UInt8(ascii: "\""))
    }
    public mutating func null() { separator(); out.append("null") }

    /// Writes a pre-encoded JSON fragment as a value (for nesting writers).
    public mutating func raw(_ json: [UInt8]) {
        separator()
        json.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    public mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) { key(name); int(value) }
    public mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: StaticString, optional value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }
    public mutating func field<T: BinaryInteger>(_ name: StaticString, optional value: T?) {
        key(name)
        if let value { int(value) } else { null() }
    }
    public mutating func field(_ name: StaticString, _ value: some NumberedID) { key(name); id(value) }
    public mutating func field<ID: NumberedID>(_ name: StaticString, optional value: ID?) {
        key(name)
        if let value { id(value) } else { null() }
    }

    /// Renders a decoded value: integers as numbers, bytes as lower-case hex strings, addresses
    /// and UUIDs in the report contract's text forms.
    public mutating func value(_ value: FieldValue) {
        switch value {
        case .int(let v): int(v)
        case .uint(let v): int(v)
        case .bool(let v): bool(v)
        case .string(let v): string(v)
        case .bytes(let v): hexString(v)
        case .address(let v): string(v.description)
        case .uuid(let v): string(v.description)
        case .null: null()
        case .list(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let fields):
            beginObject()
            for field in fields { dynamicKey(field.name); self.value(field.value) }
            endObject()
        }
    }

    /// True for the UTF-8 bytes that may need an escape: controls, `"`, `\\`, `<`, `>`, `&`,
    /// DEL and 0xE2, the lead byte of U+2028 and U+2029 (a bit per byte below 128).
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case ..<64: return (escapedBelow64 >> UInt64(byte)) & 1 != 0
        case ..<128: return (escapedBelow128 >> UInt64(byte - 64)) & 1 != 0
        default: return byte == 0xE2
        }
    }
    /// Controls (0x00–0x1F), `"` (0x22), `&` (0x26), `<` (0x3C) and `>` (0x3E).
    private static let escapedBelow64: UInt64 = 0xFFFF_FFFF | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E
    /// `\\` (0x5C) and DEL (0x7F), less 64.
    private static let escapedBelow128: UInt64 = 1 << (0x5C - 64) | 1 << (0x7F - 64)

    /// An ISO 8601 time (`Timestamp.iso8601`) as a string value, written without a String.
    public mutating func isoTime(unixMicroseconds us: Int64) {
        separator()
        out.append(UInt8(ascii: "\""))
        Timestamp.appendISO8601(unixMicroseconds: us, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    private mutating func appendString(_ text: String) {
        out.append(UInt8(ascii: "\""))
        // Most keys and values need no escape: copied as they are from their contiguous UTF-8
        // (the loop below writes the others, escaping what needs it).
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: Self.mayNeedEscape) else { return false }
            out.append(contentsOf: utf8)
            return true
        } ?? false
        if copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                appendUnicodeEscape(scalar.value)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    appendUnicodeEscape(scalar.value)
                } else {
                    // Encoded in place: no string or array per character.
                    UTF8.encode(scalar) { out.append($0) }
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane (every one this writer escapes).
    private mutating func appendUnicodeEscape(_ value: UInt32) {
        out.append("\\u")
        Hex.append([UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)], to: &out)
    }
}
