/// Decimal integers written straight into a byte buffer, for the output edges that build text as
/// bytes (the JSON writer, ISO 8601 times): no `String` per number.
public enum DecimalText {
    /// Appends `value` in decimal, padded on the left with zeros to `width` characters; a minus
    /// sign counts as one of them and follows the zeros (`-3` at width 4 is `00-3`, as the
    /// padding of its text form would be).
    public static func append(_ value: Int64, width: Int = 0, to text: inout [UInt8]) {
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let sign = value < 0 ? 1 : 0
        if width > digits + sign { text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits - sign)) }
        if value < 0 { text.append(UInt8(ascii: "-")) }
        // The digits, right to left into their places.
        text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var index = text.count - 1
        repeat {
            text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }
}
