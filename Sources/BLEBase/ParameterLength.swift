/// The size rule a protocol table states for a PDU's parameters: exactly `n` bytes, or at
/// least `n`. Checked once, before the per-code decoder runs (the style guide's point 9).
public enum ParameterLength: Sendable, Equatable {
    case fixed(Int)
    case atLeast(Int)

    /// True when `count` parameter bytes satisfy the rule (lets callers skip building the
    /// structure name `check` needs for its errors).
    @inlinable
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .fixed(let size): return count == size
        case .atLeast(let size): return count >= size
        }
    }

    /// Throws `truncated` when `reader` holds too few bytes and `leftover` when a fixed-size
    /// structure is followed by more; reads nothing.
    public func check(_ reader: ByteReader, structure: String) throws(DecodeError) {
        switch self {
        case .fixed(let size):
            guard reader.remaining >= size else {
                throw DecodeError.truncated(layer: reader.layer, field: "\(structure) parameters",
                                            at: reader.reportedOffset, needed: size, available: reader.remaining)
            }
            guard reader.remaining == size else {
                throw DecodeError.leftover(layer: reader.layer, structure: structure,
                                           at: reader.reportedOffset + size, count: reader.remaining - size)
            }
        case .atLeast(let size):
            guard reader.remaining >= size else {
                throw DecodeError.truncated(layer: reader.layer, field: "\(structure) parameters",
                                            at: reader.reportedOffset, needed: size, available: reader.remaining)
            }
        }
    }
}
