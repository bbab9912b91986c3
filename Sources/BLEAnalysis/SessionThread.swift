import BLEBase
import Dispatch
import BLESessions

/// Runs a `SessionStage` on a second thread while the calling thread runs vendor decoding:
/// events cross in batches through a bounded `HandOff`, so at most `batchesInFlight` batches
/// wait (memory stays bounded).
enum SessionThread {
    static let batchesInFlight = 4

    private enum Message: Sendable {
        case events([SessionEvent], fileOffset: Int)
        case end(SessionStage.End)
    }

    /// The stage (and its reader) moves to the second thread and is used there only until it
    /// sends `.end`; the caller touches the reader again only after receiving that (the
    /// hand-off orders the two).
    private final class Transfer: @unchecked Sendable {
        var stage: SessionStage
        init(_ stage: SessionStage) { self.stage = stage }
    }

    static func run(_ stage: consuming SessionStage, vendor: inout VendorLayer, progress: ((Int) -> Void)?) -> SessionStage.End {
        let handOff = HandOff<Message>(capacity: batchesInFlight)
        // Each batch of events is one batch of records, read ahead by this reader when paced.
        let prefetching = stage.reader as? PrefetchingReader
        let transfer = Transfer(stage)
        // A queue of its own targets the overcommitting pool: a thread now, however busy the
        // global pool is (its width is the core count, and the caller may be one of its workers).
        DispatchQueue(label: "bledecode.sessions").async {
            var events: [SessionEvent] = []
            while let offset = transfer.stage.step(into: &events) {
                // Handed over as the only reference: if `events` still held the batch when the
                // vendor thread took its first event, the batch would be copied whole.
                let batch = events
                events = []
                handOff.send(.events(consume batch, fileOffset: offset))
            }
            handOff.send(.end(transfer.stage.finish()))
        }
        while true {
            switch handOff.receive() {
            case .events(var events, let offset):
                ArrayDrain.all(&events) { vendor.handle($0) }
                prefetching?.batchUsed()
                progress?(offset)
            case .end(let end):
                return end
            }
        }
    }
}
