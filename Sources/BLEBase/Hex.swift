/// Hex text for output edges only (renderers, JSON `raw` fields, test messages).
public enum Hex {
    /// Lower-case hex with no separators: `aa0159`.
    public static func string<C: Collection>(_ bytes: C, limit: Int = .max) -> String where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(Swift.min(bytes.count, limit) * 2 + 3)
        append(bytes.prefix(Swift.max(limit, 0)), to: &out)
        if bytes.count > limit { out.append(contentsOf: Array("...".utf8)) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The lower-case hex digits of `bytes`, appended to a byte buffer (`string` without a String).
    /// Inlinable so that callers in other modules get it specialized: the generic version
    /// allocates for every byte it iterates.
    @inlinable
    public static func append<C: Collection, Out: ByteAppending>(_ bytes: C, to out: inout Out) where C.Element == UInt8 {
        appendWritten(atMost: 2 * bytes.count, to: &out) { write(bytes, at: $0) }
    }

    /// `append` into memory with room for two bytes per byte at `start`; returns how many it wrote.
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
