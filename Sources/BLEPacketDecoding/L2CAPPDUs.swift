import BLEBase
import BLEL2CAP

/// The L2CAP PDUs one record completed, in order. The first is stored inline: a record
/// completes at most one PDU almost always, and that one then costs no allocation.
public struct L2CAPPDUs: RandomAccessCollection, Sendable {
    /// The first PDU, inline, when `count > 0`; `rest` holds any others. Read in place by a
    /// consumer that wants no copy of them (the subscript returns one), after checking `count`:
    /// while it is 0, a PDU that owns nothing holds the place, or the PDU of a packet emptied
    /// since (`removeAll`). Not an optional: storing the first would destroy the empty optional
    /// through the runtime's generic witness.
    /// Settable so that a consumer can be lent it in place (`inout`): passed as an argument, it
    /// would be copied first, once per ATT PDU.
    public var head = L2CAPPDU.placeholder
    public private(set) var rest: [L2CAPPDU] = []
    public private(set) var count = 0

    public init() {}

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> L2CAPPDU {
        position == 0 ? head : rest[position - 1]
    }

    /// Back to no PDU, `rest` keeping its capacity. The first stays in its place until the next
    /// `append` replaces it: putting a placeholder there would cost a destroy per ACL record.
    public mutating func removeAll() {
        if !rest.isEmpty { ArrayDrain.removeFirst(rest.count, of: &rest) }
        count = 0
    }

    public mutating func append(_ pdu: L2CAPPDU) {
        if count == 0 { head = pdu } else { rest.append(pdu) }
        count += 1
    }

    /// Decodes the content of the last PDU from its frame, read where it lies here
    /// (`PacketDecoder.content(of:)`); the decoder appends each PDU first, with the placeholder
    /// content `.other(error: nil)`. That holds no reference, so the content is written over it
    /// in place: assigned, the placeholder would go through two outlined destroys.
    mutating func decodeLastContent() {
        if count == 1 {
            assert(Self.isPlaceholder(head.content), "the last PDU's content is decoded once, over the placeholder")
            let content = PacketDecoder.content(of: &head.frame)
            withUnsafeMutablePointer(to: &head.content) { $0.initialize(to: content) }
        } else if count > 1 {
            let last = rest.count - 1
            assert(Self.isPlaceholder(rest[last].content), "the last PDU's content is decoded once, over the placeholder")
            let content = PacketDecoder.content(of: &rest[last].frame)
            withUnsafeMutablePointer(to: &rest[last].content) { $0.initialize(to: content) }
        }
    }

    /// Changes the last PDU in place (the channel table's decoding of a dynamic channel).
    mutating func updateLast(_ body: (inout L2CAPPDU) -> Void) {
        if count == 1 { body(&head) } else if count > 1 { body(&rest[rest.count - 1]) }
    }

    private static func isPlaceholder(_ content: L2CAPContent) -> Bool {
        if case .other(error: nil) = content { true } else { false }
    }
}

extension L2CAPPDU {
    /// A PDU that owns nothing, holding `L2CAPPDUs.head`'s place.
    static var placeholder: L2CAPPDU {
        L2CAPPDU(link: .air(accessAddress: 0), direction: .unknown,
                 frame: L2CAPFrame(channelID: .null, body: ByteReader([]), firstRecordIndex: 0, lastRecordIndex: 0,
                                   firstTimestampUs: 0, lastTimestampUs: 0, fragmentCount: 0),
                 content: .other(error: nil))
    }
}
