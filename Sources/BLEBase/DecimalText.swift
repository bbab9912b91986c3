/// Decimal integers written straight into memory, for the output edges that build text as bytes
/// (the JSON writer, ISO 8601 times): no `String` per number.
public enum DecimalText {
    /// Writes `value` in decimal at `start`, which has room for `max(width, 20)` bytes, padded on
    /// the left with zeros to `width` characters; a minus sign counts as one of them and follows
    /// the zeros (`-3` at width 4 is `00-3`, as the padding of its text form would be). Returns
    /// how many bytes it wrote.
    @inlinable
    public static func write(_ value: Int64, width: Int = 0, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = value.magnitude
        let digits = count(magnitude)
        let sign = value < 0 ? 1 : 0
        let padding = Swift.max(width - digits - sign, 0)
        if padding > 0 { start.update(repeating: UInt8(ascii: "0"), count: padding) }
        if value < 0 { start[padding] = UInt8(ascii: "-") }
        writeDigits(magnitude, count: digits, at: start + padding + sign)
        return padding + sign + digits
    }

    /// How many decimal digits `value` has (1 for 0).
    @inlinable
    public static func count(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        if rest >= 100_000_000 { digits += 8; rest /= 100_000_000 }
        if rest >= 100_000_000 { digits += 8; rest /= 100_000_000 }
        if rest >= 10_000 { digits += 4; rest /= 10_000 }
        if rest >= 100 { digits += 2; rest /= 100 }
        if rest >= 10 { digits += 1 }
        return digits
    }

    /// The `count` (`count(value)`) digits of `value` at `start`, two at a time from the right.
    @inlinable
    public static func writeDigits(_ value: UInt64, count: Int, at start: UnsafeMutablePointer<UInt8>) {
        var rest = value
        var end = start + count
        while rest >= 100 {
            end -= 2
            writePair(Int(truncatingIfNeeded: rest % 100), at: end)
            rest /= 100
        }
        if rest >= 10 {
            writePair(Int(truncatingIfNeeded: rest), at: start)
        } else {
            start.pointee = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest)
        }
    }

    /// The two digits of `value` (0–99) at `at`, zero first when below 10.
    @inlinable @inline(__always)
    public static func writePair(_ value: Int, at: UnsafeMutablePointer<UInt8>) {
        let pair = UnsafeRawPointer(pairs.utf8Start + 2 * value).loadUnaligned(as: UInt16.self)
        UnsafeMutableRawPointer(at).storeBytes(of: pair, as: UInt16.self)
    }

    /// `00` to `99` in a row: a static string's bytes, a constant table that needs no setting up.
    @inlinable
    static var pairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
