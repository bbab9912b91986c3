/// Decimal integers written straight into a byte buffer, for the output edges that build text as
/// bytes (the JSON writer, ISO 8601 times): no `String` per number.
public enum DecimalText {
    /// Appends `value` in decimal, padded on the left with zeros to `width` characters; a minus
    /// sign counts as one of them and follows the zeros (`-3` at width 4 is `00-3`, as the
    /// padding of its text form would be).
    @inlinable
    public static func append<Out: ByteAppending>(_ value: Int64, width: Int = 0, to text: inout Out) {
        // The digits right to left into a scratch buffer (20 holds UInt64.max), then copied in
        // one append: written in the array's own places, each digit would check its uniqueness.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var magnitude = value.magnitude
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            let sign = value < 0 ? 1 : 0
            var padding = width - (scratch.count - start) - sign
            while padding > 0 {
                text.append(UInt8(ascii: "0"))
                padding -= 1
            }
            if value < 0 { text.append(UInt8(ascii: "-")) }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[start...]))
        }
    }
}
