/// Renders microseconds since the Unix epoch as ISO 8601 UTC without Foundation's formatter
/// (which is slow and locale-dependent): `2024-04-25T08:23:52.123646Z`.
public enum Timestamp {
    /// Capture timestamps are kept within ±2^58 µs of the Unix epoch (about 9,100 years either
    /// way), so that the sum or difference of two of them and any duration bledecode adds (a
    /// timeout, a gap) fits in 64 bits; the files themselves can carry any 64-bit value.
    public static let limitUs: Int64 = 1 << 58

    /// `us` brought into `-limitUs...limitUs`.
    public static func clamped(_ us: Int64) -> Int64 { min(max(us, -limitUs), limitUs) }

    public static func iso8601(unixMicroseconds us: Int64) -> String {
        String(unsafeUninitializedCapacity: 48) { writeISO8601(unixMicroseconds: us, at: $0.baseAddress!) }
    }

    /// `iso8601(unixMicroseconds:)` into memory with room for 48 bytes at `start` (the JSON report
    /// writes three per connection and two per vendor frame); returns how many bytes it wrote.
    @inlinable
    public static func writeISO8601(unixMicroseconds us: Int64, at start: UnsafeMutablePointer<UInt8>) -> Int {
        let seconds = us >= 0 ? us / 1_000_000 : (us - 999_999) / 1_000_000
        let micros = us - seconds * 1_000_000
        var days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil-from-days (Howard Hinnant's public-domain algorithm, proleptic Gregorian).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // Every field but the year has a fixed width.
        var at = start
        if (1000...9999).contains(year) {
            DecimalText.writePair(Int(year / 100), at: at)
            DecimalText.writePair(Int(year % 100), at: at + 2)
            at += 4
        } else {
            at += DecimalText.write(year, width: 4, at: at)
        }
        func field(_ separator: UInt8, _ value: Int64) {
            at.pointee = separator
            DecimalText.writePair(Int(value), at: at + 1)
            at += 3
        }
        field(UInt8(ascii: "-"), month)
        field(UInt8(ascii: "-"), day)
        field(UInt8(ascii: "T"), secondOfDay / 3600)
        field(UInt8(ascii: ":"), secondOfDay / 60 % 60)
        field(UInt8(ascii: ":"), secondOfDay % 60)
        field(UInt8(ascii: "."), micros / 10_000)
        DecimalText.writePair(Int(micros / 100 % 100), at: at)
        DecimalText.writePair(Int(micros % 100), at: at + 2)
        at[4] = UInt8(ascii: "Z")
        return at + 5 - start
    }

    /// `+12.345678` seconds, for relative times in listings.
    public static func relativeSeconds(_ us: Int64) -> String {
        let sign = us < 0 ? "-" : ""
        let magnitude = us.magnitude
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
