/// A strict JSON (RFC 8259) reader for tests: it accepts a document only if it is well formed
/// and no object in it names a key twice, which RFC 8259 §4 leaves to each reader (Foundation's
/// keeps the last value silently). It only checks; values are not built.
public enum StrictJSON {
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var offset: Int
        public var message: String
        public var description: String { "byte \(offset): \(message)" }

        public init(offset: Int, message: String) {
            self.offset = offset
            self.message = message
        }
    }

    /// Throws the first problem: a syntax error or a key written twice in one object (its path).
    public static func check(_ text: String) throws(Problem) {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        try parser.value(path: "$")
        parser.skipSpace()
        guard parser.at == parser.bytes.count else { throw Problem(offset: parser.at, message: "text after the value") }
    }

    private struct Parser {
        let bytes: [UInt8]
        var at = 0

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        func fail(_ message: String) -> Problem { Problem(offset: at, message: message) }

        mutating func expect(_ byte: UInt8) throws(Problem) {
            guard at < bytes.count, bytes[at] == byte else {
                throw fail("expected \(String(UnicodeScalar(byte)))")
            }
            at += 1
        }

        mutating func value(path: String) throws(Problem) {
            guard at < bytes.count else { throw fail("value expected") }
            switch bytes[at] {
            case UInt8(ascii: "{"): try object(path: path)
            case UInt8(ascii: "["): try array(path: path)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: try number()
            }
        }

        mutating func object(path: String) throws(Problem) {
            try expect(UInt8(ascii: "{"))
            var keys: Set<String> = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return }
            while true {
                skipSpace()
                let keyAt = at
                let key = try string()
                guard keys.insert(key).inserted else {
                    throw Problem(offset: keyAt, message: "key \"\(key)\" written twice in \(path)")
                }
                skipSpace()
                try expect(UInt8(ascii: ":"))
                skipSpace()
                try value(path: path + "." + key)
                skipSpace()
                guard at < bytes.count else { throw fail("unterminated object") }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return }
                try expect(UInt8(ascii: ","))
            }
        }

        mutating func array(path: String) throws(Problem) {
            try expect(UInt8(ascii: "["))
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return }
            var index = 0
            while true {
                skipSpace()
                try value(path: path + "[\(index)]")
                index += 1
                skipSpace()
                guard at < bytes.count else { throw fail("unterminated array") }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return }
                try expect(UInt8(ascii: ","))
            }
        }

        mutating func string() throws(Problem) -> String {
            try expect(UInt8(ascii: "\""))
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                if bytes[at] < 0x20 { throw fail("control character in a string") }
                at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard at < bytes.count else { throw fail("unterminated string") }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            at += 1
            return text
        }

        mutating func literal(_ word: String) throws(Problem) {
            for byte in word.utf8 { try expect(byte) }
        }

        mutating func number() throws(Problem) {
            let start = at
            while at < bytes.count, "+-0123456789.eE".utf8.contains(bytes[at]) { at += 1 }
            guard at > start, Double(String(decoding: bytes[start..<at], as: UTF8.self)) != nil else {
                throw Problem(offset: start, message: "not a JSON value")
            }
        }
    }
}
