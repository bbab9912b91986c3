import BLEReports
import Testing

/// The JSON writer's number, byte and string encodings, checked against the exact text.
struct JSONWriterTests {
    @Test func integersAtEveryWidth() {
        var w = JSONWriter()
        w.beginArray()
        for value: Int64 in [0, 7, -1, 10, -10, 1_000_000, Int64.max, Int64.min] { w.int(value) }
        w.int(UInt64.max)
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self)
            == "[0,7,-1,10,-10,1000000,9223372036854775807,-9223372036854775808,18446744073709551615]")
    }

    @Test func bytesAsHexAndEscapedStrings() {
        var w = JSONWriter()
        w.beginObject()
        w.key("raw")
        w.hexString([0x00, 0xAA, 0x0F, 0xF0])
        w.key("slice")
        w.value(.bytes([]))
        w.field("name", "a\"<b>\u{1B}\n")
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self)
            == #"{"raw":"00aa0ff0","slice":"","name":"a\"\u003cb\u003e\u001b\n"}"#)
    }

    /// Names and strings are copied a word at a time, the last word overlapping: every length
    /// from empty to five words, and digits on both sides of every power of ten.
    @Test func stringsOfEveryLengthAndNumbersAtEveryDigitCount() {
        var w = JSONWriter()
        var expected: [String] = []
        w.beginArray()
        for length in 0...40 {
            let text = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            w.string(text)
            expected.append("\"" + text + "\"")
        }
        var power: UInt64 = 1
        for _ in 0...19 {
            for value in [power - 1, power, power + 1] {
                w.int(value)
                expected.append(String(value))
            }
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
    }

    /// A copied writer writes on its own text; the buffer grows past its first capacity; lending
    /// the bytes keeps the nesting.
    @Test func copiesDivergeAndTheBufferGrows() {
        var w = JSONWriter(capacity: 1)
        w.beginObject()
        w.field("a", 1)
        var copy = w
        copy.field("b", "x")
        copy.endObject()
        w.field("long", String(repeating: "z", count: 300))
        #expect(String(decoding: copy.bytes, as: UTF8.self) == #"{"a":1,"b":"x"}"#)
        var first: [UInt8] = []
        w.lendBytes { first = Array($0) }
        w.endObject()
        #expect(String(decoding: first + w.bytes, as: UTF8.self) == #"{"a":1,"long":""# + String(repeating: "z", count: 300) + #""}"#)
        #expect(w.count == 1)
    }
}
