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
/// in the next bytes of its input, read in one pass with one checked `ByteReader` from one copy
/// of those bytes (one `memcpy` a batch rather than one a record), which the batch's records
/// share. Not the input's buffer itself: many batches lie in each of its 1 MiB,
/// and the threads that decode a batch and take its values would count references on the object
/// the reading thread counts on for the next ones.
struct RecordBatcher {
    /// The most bytes a batch looks at: the records lying wholly in them make it.
    static let window = 128 << 10
    /// Bytes a record took in the previous batch, for the size of the next copy (the whole window
    /// for the first).
    private var bytesPerRecord = window

    /// Up to `count` records, numbered from `firstIndex`, last first; `span` reads the record at
    /// the front of the bytes it is given past it and returns nil (the batch then ends before it)
    /// when it is not whole there or not an ordinary record. `input` skips past the batch's records.
    mutating func batch(from input: BufferedInput, upTo count: Int, firstIndex: Int,
                        span: (inout ByteReader) -> RecordSpan?) -> [CaptureRecord] {
        guard count > 0 else { return [] }
        let fileOffset = input.offset
        let window = input.peek(Self.window)
        // A quarter more than the last batch's records took, so that most batches are whole.
        let (wanted, overflow) = count.multipliedReportingOverflow(by: bytesPerRecord + bytesPerRecord / 4)
        let size = overflow ? window.remaining : min(window.remaining, wanted)
        let bytes = Array(window.storage[window.position..<window.position + size])
        var reader = ByteReader(bytes, layer: .capture)
        // Where the last whole record ends (`span` may have read into the one after it).
        var end = 0
        // Made in one pass, each in its place from the end of the list (the first record last);
        // the list then moves down to its start.
        let records = [CaptureRecord](unsafeUninitializedCapacity: count) { list, initialized in
            var made = 0
            while made < count, let found = span(&reader) {
                list.initializeElement(at: count - 1 - made, to: CaptureRecord(
                    index: firstIndex + made, timestampUs: found.timestampUs, direction: found.direction,
                    kind: found.kind, storage: bytes, payloadRange: found.payloadStart..<found.payloadStart + found.payloadCount,
                    originalLength: found.originalLength, fileOffset: fileOffset + found.headerAt, adapter: found.adapter))
                made += 1
                end = reader.position
            }
            if made < count, made > 0, let start = list.baseAddress {
                start.moveInitialize(from: start + (count - made), count: made)
            }
            initialized = made
        }
        guard !records.isEmpty else {
            // Nothing whole in a short copy: the next batch looks at the whole window again.
            if size < window.remaining { bytesPerRecord = Self.window }
            return []
        }
        bytesPerRecord = max(end / records.count, 1)
        _ = input.skip(end)
        return records
    }
}
