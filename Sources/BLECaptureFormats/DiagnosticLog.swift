/// The diagnostics of one reader, bounded: the first `limitPerKind` of each kind are kept, the
/// rest only counted and summed up in one line at the end (`finish()`).
struct DiagnosticLog {
    static let limitPerKind = 100

    private(set) var entries: [CaptureDiagnostic] = []
    private var kept: [CaptureDiagnostic.Kind: Int] = [:]
    private var dropped: [CaptureDiagnostic.Kind: Int] = [:]
    let file: String

    init(file: String) { self.file = file }

    mutating func append(_ diagnostic: CaptureDiagnostic) {
        let count = kept[diagnostic.kind, default: 0]
        if count < Self.limitPerKind {
            kept[diagnostic.kind] = count + 1
            entries.append(diagnostic)
        } else {
            dropped[diagnostic.kind, default: 0] += 1
        }
    }

    mutating func add(_ severity: CaptureDiagnostic.Severity, _ kind: CaptureDiagnostic.Kind,
                      record: Int?, at offset: Int?, _ message: String) {
        append(CaptureDiagnostic(severity: severity, kind: kind, file: file, recordNumber: record,
                                 byteOffset: offset, message: message))
    }

    /// The file ends `have` bytes into a record that needs `total` (`header` says whether only
    /// the fixed header was being read, whose size is then `total`).
    mutating func truncatedFinalRecord(record: Int, at offset: Int, have: Int, total: Int, header: Bool) {
        let part = header ? "record header" : "record"
        add(.warning, .truncatedFinalRecord, record: record, at: offset,
            "file ends inside the \(part): \(have) of \(total) bytes")
    }

    /// Closing lines: the count of records the capturing tool cut, the source's own failure (I/O,
    /// corrupt gzip), and how many diagnostics of each kind were left out.
    mutating func finish(cutRecords: Int, sourceError: CaptureError?) {
        if cutRecords > 0 {
            add(.warning, .truncatedRecords, record: nil, at: nil,
                "\(cutRecords) record(s) were cut by the capturing tool (included length < original length)")
        }
        if let sourceError {
            add(.error, .other, record: sourceError.recordNumber, at: sourceError.byteOffset, sourceError.message)
        }
        for (kind, count) in dropped.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            entries.append(CaptureDiagnostic(severity: .warning, kind: kind, file: file, recordNumber: nil,
                                             byteOffset: nil, message: "\(count) more \(kind.rawValue) diagnostic(s) not listed"))
        }
        dropped = [:]
    }
}
