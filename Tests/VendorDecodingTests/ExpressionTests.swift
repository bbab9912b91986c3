import Testing
@testable import BLEVendorDecoding

struct ExpressionTests {
    @Test func demoLockKeyWrapsForAllSequenceNumbers() throws {
        let key = try Expression(parsing: "(0x5A - seq) mod 256")
        let percent = try Expression(parsing: "(0x5A - seq) % 256")
        for seq in 0..<256 {
            let expected = Int64((0x5A - seq + 256) % 256)
            #expect(try key.evaluate(.init(seq: Int64(seq))) == expected, "seq \(seq)")
            #expect(try percent.evaluate(.init(seq: Int64(seq))) == expected, "seq \(seq)")
        }
    }

    @Test func precedenceAndOperators() throws {
        func eval(_ text: String, _ context: Expression.Context = .init()) throws -> Int64 {
            try Expression(parsing: text).evaluate(context)
        }
        #expect(try eval("1 + 2 * 3") == 7)
        #expect(try eval("(1 + 2) * 3") == 9)
        #expect(try eval("0x10 | 0x01 ^ 0x03 & 0x01") == 0x10 | (0x01 ^ (0x03 & 0x01)))
        #expect(try eval("1 << 4 >> 2") == 4)
        #expect(try eval("-7 / 2") == -3)
        #expect(try eval("-7 % 3") == 2)
        #expect(try eval("~0 & 0xFF") == 0xFF)
        #expect(try eval("cmd | 0x80", .init(cmd: 0x01)) == 0x81)
        #expect(try eval("byte[1] + index + len", .init(len: 4, index: 2, frame: [0xAA, 0x10])) == 0x16)
    }

    @Test func evaluationErrors() throws {
        #expect(throws: ExpressionError(column: nil, message: "division by zero")) {
            try Expression(parsing: "1 / (seq - seq)").evaluate(.init(seq: 3))
        }
        #expect(throws: ExpressionError(column: nil, message: "byte[5] is outside the 2-byte frame")) {
            try Expression(parsing: "byte[5]").evaluate(.init(frame: [1, 2]))
        }
        #expect(throws: ExpressionError(column: nil, message: "shift by 64 is outside 0...63")) {
            try Expression(parsing: "1 << 64").evaluate(.init())
        }
        #expect(throws: ExpressionError(column: nil, message: "seq has no value here")) {
            try Expression(parsing: "seq").evaluate(.init())
        }
    }

    @Test(arguments: [
        ("seq +", 6, "expected a value, found the end"),
        ("(seq", 5, "expected ')'"),
        ("seq $ 1", 5, "unexpected '$'"),
        ("foo + 1", 1, "unknown name 'foo' (known: seq, cmd, len, index, byte[N])"),
        ("0x", 1, "number out of 64-bit range or malformed"),
        ("12ab", 1, "malformed number"),
        ("byte 1", 6, "expected '[' after byte"),
        ("seq || 1", 6, "unexpected '|'"),
    ])
    func parseErrorsNameTheColumn(text: String, column: Int, message: String) {
        #expect(throws: ExpressionError(column: column, message: message)) { try Expression(parsing: text) }
    }

    @Test func limits() throws {
        let deep = String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40)
        #expect(throws: ExpressionError(column: 33, message: "expression nested deeper than 32")) {
            try Expression(parsing: deep)
        }
        let long = Array(repeating: "1", count: 129).joined(separator: "+")
        #expect(throws: ExpressionError(column: 257, message: "expression longer than 256 characters")) {
            try Expression(parsing: long)
        }
        #expect(throws: ExpressionError(column: 33, message: "expression nested deeper than 32")) {
            try Expression(parsing: String(repeating: "-", count: 33) + "1")
        }
        #expect(try Expression(parsing: String(repeating: "(", count: 31) + "1" + String(repeating: ")", count: 31))
            .evaluate(.init()) == 1)
    }
}
