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
struct RecordBatcher {
    /// The bytes a batch looks at: the records lying wholly in them make it.
    static let window = 128 << 10

    /// The records of the batch being made (kept for their capacity).
    private var spans: [RecordSpan] = []

    /// Up to `count` records, numbered from `firstIndex`, last first; `span` reads the record at
    /// the front of the window past it and returns nil (the batch then ends before it) when it
    /// is not whole there or not an ordinary record. `input` skips past the batch's records.
    mutating func batch(from input: BufferedInput, upTo count: Int, firstIndex: Int,
                        span: (inout ByteReader) -> RecordSpan?) -> [CaptureRecord] {
        spans.removeAll(keepingCapacity: true)
        let fileOffset = input.offset
        var window = input.peek(Self.window)
        let base = window.position
        var end = base
        while spans.count < count, let found = span(&window) {
            spans.append(found)
            end = window.position
        }
        guard !spans.isEmpty else { return [] }
        let records = Self.records(spans, in: window.storage, base: base, fileOffset: fileOffset, firstIndex: firstIndex)
        _ = input.skip(end - base)
        return records
    }

    /// Every span was read whole from `buffer` by a checked reader: its range lies inside it.
    private static func records(_ spans: [RecordSpan], in buffer: [UInt8], base: Int, fileOffset: Int,
                                firstIndex: Int) -> [CaptureRecord] {
        [CaptureRecord](unsafeUninitializedCapacity: spans.count) { list, initialized in
            for (i, span) in spans.enumerated() {
                list.initializeElement(at: spans.count - 1 - i, to: CaptureRecord(
                    index: firstIndex + i, timestampUs: span.timestampUs, direction: span.direction, kind: span.kind,
                    storage: buffer, payloadRange: span.payloadStart..<span.payloadStart + span.payloadCount,
                    originalLength: span.originalLength, fileOffset: fileOffset + span.headerAt - base,
                    adapter: span.adapter))
            }
            initialized = spans.count
        }
    }
}
