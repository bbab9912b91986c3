import BLEBase

/// Where one record of a batch lies in a reader's input buffer, and what it is.
struct RecordSpan {
    var headerAt: Int
    var payloadStart: Int
    var payloadCount: Int
    var kind: RecordKind
    var direction: Direction
    var originalLength: Int
    var timestampUs: Int64
    var adapter: UInt16?
}

/// Makes a reader's batches (`RecordBatchReader.nextBatch`): the ordinary records lying wholly
/// in the next `window` bytes of its input, read in one pass with one checked `ByteReader`.
/// The records share the input's buffer, which it never changes once read into (a copy of each
/// batch's payloads cost a `memcpy` call a record and an allocation a batch).
enum RecordBatcher {
    /// The bytes a batch looks at: the records lying wholly in them make it.
    static let window = 128 << 10

    /// Up to `count` records, numbered from `firstIndex`, last first; `span` reads the record at
    /// the front of the window past it and returns nil (the batch then ends before it) when it
    /// is not whole there or not an ordinary record. `input` skips past the batch's records.
    static func batch(from input: BufferedInput, upTo count: Int, firstIndex: Int,
                      span: (inout ByteReader) -> RecordSpan?) -> [CaptureRecord] {
        let fileOffset = input.offset
        var window = input.peek(Self.window)
        let base = window.position
        var end = base
        let buffer = window.storage
        // Made in one pass, each in its place from the end of the list (the first record last);
        // the list then moves down to its start.
        let records = [CaptureRecord](unsafeUninitializedCapacity: max(count, 0)) { list, initialized in
            var made = 0
            while made < count, let found = span(&window) {
                list.initializeElement(at: count - 1 - made, to: CaptureRecord(
                    index: firstIndex + made, timestampUs: found.timestampUs, direction: found.direction,
                    kind: found.kind, storage: buffer, payloadRange: found.payloadStart..<found.payloadStart + found.payloadCount,
                    originalLength: found.originalLength, fileOffset: fileOffset + found.headerAt - base,
                    adapter: found.adapter))
                made += 1
                end = window.position
            }
            if made < count, made > 0, let start = list.baseAddress {
                start.moveInitialize(from: start + (count - made), count: made)
            }
            initialized = made
        }
        guard !records.isEmpty else { return [] }
        _ = input.skip(end - base)
        return records
    }
}
