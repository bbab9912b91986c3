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
    /// How many objects and arrays are open: an `end` without its `begin` is a bug.
    private var depth = 0

    public init(capacity: Int = 4096) { out = JSONBuffer(capacity: capacity) }

    /// The text written so far.
    public var bytes: [UInt8] { out.bytes }
    /// How many bytes `bytes` holds.
    public var count: Int { out.count }

    /// Lends the text written so far to `body` and starts an empty buffer (the document's nesting
    /// is kept), so that a long document can be streamed out in pieces.
    public mutating func lendBytes(to body: (UnsafeBufferPointer<UInt8>) -> Void) {
        unique()
        out.lend(to: body)
    }

    /// Writes the values `other` wrote at its top level as the next values here, by lending this
    /// writer's text and then `other`'s to `sink` (a long array's piece written on another thread).
    mutating func lendValues(of other: inout JSONWriter, to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
        unique()
        // The comma before `other`'s first value.
        putValue(atMost: 0) { _ in 0 }
        out.lend(to: sink)
        other.lendBytes(to: sink)
    }

    /// Every public write starts here, once: a writer whose buffer a copy shares takes its own.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&out) { out = out.copy() }
    }

    /// Writes a value of at most `count` bytes, which `body` writes where it gets, after the
    /// comma that a value after another needs; returns nothing, the value is in.
    @inline(__always)
    private mutating func putValue(atMost count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = needsComma ? 1 : 0
        out.append(atMost: count + 1) { start in
            // Written either way: without a comma due, the value overwrites it.
            start.pointee = UInt8(ascii: ",")
            return comma + body(start + comma)
        }
        needsComma = true
    }

    private mutating func begin(_ bracket: UInt8) {
        unique()
        putValue(atMost: 1) { start in
            start.pointee = bracket
            return 1
        }
        depth += 1
        needsComma = false
    }

    private mutating func end(_ bracket: UInt8) {
        unique()
        precondition(depth > 0, "a JSON end without its begin")
        depth -= 1
        out.append(bracket)
        // The object or array just closed is a value of the one around it.
        needsComma = true
    }

    public mutating func beginObject() { begin(UInt8(ascii: "{")) }
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    public mutating func beginArray() { begin(UInt8(ascii: "[")) }
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// Writes `"key":` for one of the report's own names, copied without an escape scan (a
    /// name must need no escape); the next value call writes the value without a comma.
    @inline(__always)
    public mutating func key(_ key: StaticString) {
        unique()
        putKey(key)
    }

    @inline(__always)
    private mutating func putKey(_ key: StaticString) {
        assert(key.withUTF8Buffer { !$0.contains(where: Self.mayNeedEscape) }, "JSON names need no escape")
        key.withUTF8Buffer { name in
            putValue(atMost: name.count + 3) { start in
                start.pointee = UInt8(ascii: "\"")
                Self.copy(name, to: start + 1)
                start[name.count + 1] = UInt8(ascii: "\"")
                start[name.count + 2] = UInt8(ascii: ":")
                return name.count + 3
            }
        }
        needsComma = false
    }

    /// `key(_:)` for a name taken from data (a dictionary's key, a decoded field's name): escaped.
    public mutating func dynamicKey(_ key: String) {
        unique()
        putString(key)
        out.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        unique()
        putString(value)
    }

    /// `bytes` as a string of lower-case hex digits (`Hex.string`), written without a String.
    public mutating func hexString<Bytes: Collection<UInt8>>(_ value: Bytes) {
        unique()
        putValue(atMost: 2 * value.count + 2) { start in
            start.pointee = UInt8(ascii: "\"")
            let digits = Hex.write(value, at: start + 1)
            start[digits + 1] = UInt8(ascii: "\"")
            return digits + 2
        }
    }

    public mutating func int<T: BinaryInteger>(_ value: T) {
        unique()
        putInt(value)
    }

    @inline(__always)
    private mutating func putInt<T: BinaryInteger>(_ value: T) {
        if let small = Int64(exactly: value) {
            putValue(atMost: 20) { DecimalText.write(small, at: $0) }
        } else {
            var text = String(value)
            text.withUTF8 { digits in putLiteral(digits) }
        }
    }

    public mutating func bool(_ value: Bool) {
        unique()
        putBool(value)
    }

    @inline(__always)
    private mutating func putBool(_ value: Bool) {
        let literal: StaticString = value ? "true" : "false"
        literal.withUTF8Buffer { putLiteral($0) }
    }

    /// `"C3"`, `"D2"`, written without a String.
    public mutating func id(_ value: some NumberedID) {
        unique()
        putID(value)
    }

    @inline(__always)
    private mutating func putID(_ value: some NumberedID) {
        let letter = type(of: value).letter.asciiValue ?? UInt8(ascii: "?")
        let number = Int64(value.number)
        putValue(atMost: 23) { start in
            start[0] = UInt8(ascii: "\"")
            start[1] = letter
            let digits = DecimalText.write(number, at: start + 2)
            start[digits + 2] = UInt8(ascii: "\"")
            return digits + 3
        }
    }

    public mutating func null() {
        unique()
        putNull()
    }

    @inline(__always)
    private mutating func putNull() {
        let literal: StaticString = "null"
        literal.withUTF8Buffer { putLiteral($0) }
    }

    /// Text that needs no escape, as a value.
    @inline(__always)
    private mutating func putLiteral(_ text: UnsafeBufferPointer<UInt8>) {
        putValue(atMost: text.count) { start in
            Self.copy(text, to: start)
            return text.count
        }
    }

    /// Writes a pre-encoded JSON fragment as a value (for nesting writers).
    public mutating func raw(_ json: [UInt8]) {
        unique()
        json.withUnsafeBufferPointer { fragment in
            putValue(atMost: fragment.count) { start in
                if let source = fragment.baseAddress { start.initialize(from: source, count: fragment.count) }
                return fragment.count
            }
        }
    }

    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: String) {
        unique()
        putKey(name)
        putString(value)
    }
    @inline(__always)
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) {
        unique()
        putKey(name)
        putInt(value)
    }
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: Bool) {
        unique()
        putKey(name)
        putBool(value)
    }
    @inline(__always)
    public mutating func field(_ name: StaticString, optional value: String?) {
        unique()
        putKey(name)
        if let value { putString(value) } else { putNull() }
    }
    @inline(__always)
    public mutating func field<T: BinaryInteger>(_ name: StaticString, optional value: T?) {
        unique()
        putKey(name)
        if let value { putInt(value) } else { putNull() }
    }
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: some NumberedID) {
        unique()
        putKey(name)
        putID(value)
    }
    @inline(__always)
    public mutating func field<ID: NumberedID>(_ name: StaticString, optional value: ID?) {
        unique()
        putKey(name)
        if let value { putID(value) } else { putNull() }
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

    /// Copies a few bytes a word at a time, the last word overlapping the one before: inline,
    /// for names and short values that a call to memcpy would cost more than.
    @inline(__always)
    private static func copy(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        guard let from = source.baseAddress else { return }
        let count = source.count
        let raw = UnsafeRawPointer(from)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            var offset = 0
            while offset < count - 8 {
                to.storeBytes(of: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            to.storeBytes(of: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            to.storeBytes(of: raw.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self), toByteOffset: count - 4, as: UInt32.self)
        } else {
            for offset in 0..<count { target[offset] = from[offset] }
        }
    }

    /// An ISO 8601 time (`Timestamp.iso8601`) as a string value, written without a String.
    public mutating func isoTime(unixMicroseconds us: Int64) {
        unique()
        putValue(atMost: 50) { start in
            start.pointee = UInt8(ascii: "\"")
            let time = Timestamp.writeISO8601(unixMicroseconds: us, at: start + 1)
            start[time + 1] = UInt8(ascii: "\"")
            return time + 2
        }
    }

    /// A string value; most need no escape and are copied as they are from their contiguous UTF-8.
    @inline(__always)
    private mutating func putString(_ text: String) {
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 where Self.mayNeedEscape(byte) { return false }
            putValue(atMost: utf8.count + 2) { start in
                start.pointee = UInt8(ascii: "\"")
                Self.copy(utf8, to: start + 1)
                start[utf8.count + 1] = UInt8(ascii: "\"")
                return utf8.count + 2
            }
            return true
        } ?? false
        if !copied { putEscaped(text) }
    }

    /// `putString` for the text that may need an escape.
    private mutating func putEscaped(_ text: String) {
        putValue(atMost: 1) { start in
            start.pointee = UInt8(ascii: "\"")
            return 1
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
        out.append(atMost: 4) { Hex.write([UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)], at: $0) }
    }
}

/// Copy-on-write as an array is: a buffer that copies share is only read, so a writer can be
/// handed to another thread (`ParallelJSON`).
extension JSONWriter: @unchecked Sendable {}
