/// The L2CAP PDUs one record completed, in order. The first is stored inline: a record
/// completes at most one PDU almost always, and that one then costs no allocation.
public struct L2CAPPDUs: RandomAccessCollection, Sendable {
    /// The first PDU, inline; `rest` holds any others. Read in place by a consumer that wants no
    /// copy of them (the subscript returns one).
    public private(set) var head: L2CAPPDU?
    public private(set) var rest: [L2CAPPDU] = []
    /// Stored, so that counting does not copy `head` out to test it.
    public private(set) var count = 0

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> L2CAPPDU {
        if position == 0, let head { return head }
        return rest[position - 1]
    }

    public mutating func append(_ pdu: L2CAPPDU) {
        if count == 0 { head = pdu } else { rest.append(pdu) }
        count += 1
    }
}
