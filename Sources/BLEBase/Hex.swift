/// Hex text for output edges only (renderers, JSON `raw` fields, test messages).
public enum Hex {
    /// Lower-case hex with no separators: `aa0159`.
    public static func string<C: Collection>(_ bytes: C, limit: Int = .max) -> String where C.Element == UInt8 {
        let shown = bytes.prefix(Swift.max(limit, 0))
        let hex = String(unsafeUninitializedCapacity: 2 * shown.count) { $0.baseAddress.map { write(shown, at: $0) } ?? 0 }
        return bytes.count > limit ? hex + "..." : hex
    }

    /// The lower-case hex digits of `bytes` at `start`, which has room for two per byte; returns
    /// how many it wrote.
    @inlinable
    public static func write<C: Collection>(_ bytes: C, at start: UnsafeMutablePointer<UInt8>) -> Int
    where C.Element == UInt8 {
        var at = start
        let digits = Self.digits.utf8Start
        for byte in bytes {
            at[0] = digits[Int(byte >> 4)]
            at[1] = digits[Int(byte & 0x0F)]
            at += 2
        }
        return at - start
    }

    /// A static string's bytes: a constant table that needs no setting up.
    @inlinable
    static var digits: StaticString { "0123456789abcdef" }

    /// `0x1F` style, upper-case, zero-padded to `width` hex digits.
    public static func code<T: BinaryInteger>(_ value: T, width: Int = 2) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: Swift.max(0, width - text.count)) + text
    }

    /// Parses hex text (whitespace, `:` and `-` ignored); nil on any other character or odd count.
    public static func bytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        for scalar in text.unicodeScalars {
            let nibble: UInt8
            switch scalar {
            case "0"..."9": nibble = UInt8(scalar.value - 48)
            case "a"..."f": nibble = UInt8(scalar.value - 87)
            case "A"..."F": nibble = UInt8(scalar.value - 55)
            case " ", "\n", "\t", "\r", ":", "-": continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}
