/// Capture files inside a zip: a btsnoop log zipped alone, or the snoop log that recent Android
/// bug reports carry as a file (`FS/data/misc/bluetooth/logs/btsnoop_hci.log`,
/// `FS/data/log/bt/…`) rather than as a `BTSNOOP_LOG_SUMMARY` section. Recognised by content,
/// like any capture; the first is read and the others are named in a warning.
extension AndroidBugreport {
    /// Entries worth a look by name: not folders or text, and named like a log or a capture.
    static func captureCandidates(_ entries: [ZipCentralEntry]) -> [ZipCentralEntry] {
        let extensions = [".log", ".cfa", ".pcap", ".pcapng", ".pklg", ".btsnoop", ".cap", ".gz", ".last", ".curf"]
        let candidates = entries.filter { entry in
            let base = (entry.name.split(separator: "/").last.map(String.init) ?? entry.name).lowercased()
            return !entry.name.hasSuffix("/") && !base.hasSuffix(".txt")
                && (base.contains("btsnoop") || base.contains("hci") || extensions.contains { base.hasSuffix($0) })
        }
        // Logs named as snoop logs first, each group in the archive's order.
        return candidates.filter { $0.name.lowercased().contains("btsnoop") }
            + candidates.filter { !$0.name.lowercased().contains("btsnoop") }
    }

    /// The first capture the zip holds, read as a capture of its own; nil when it holds none.
    static func openCapture(in archive: ZipArchive, path: String, compressed: Bool) throws(CaptureError) -> (any RecordReader)? {
        var found: [(entry: ZipCentralEntry, input: BufferedInput, signature: ContainerSignature, gzip: Bool)] = []
        for entry in captureCandidates(archive.entries) {
            let name = "\(path) (\(entry.name))"
            guard let source = try? archive.contents(of: entry) else { continue }
            var input = BufferedInput(source)
            guard var signature = try? ContainerSignature.detect(input, file: name, compressed: false) else { continue }
            var gzip = false
            if signature == .gzip, let inflated = try? GzipSource(upstream: input, name: name) {
                input = BufferedInput(inflated)
                gzip = true
                guard let inner = try? ContainerSignature.detect(input, file: name, compressed: true) else { continue }
                signature = inner
            }
            switch signature {
            case .btsnoop, .pcap, .pcapng, .packetLogger: found.append((entry, input, signature, gzip))
            case .zip, .text, .gzip: continue
            }
        }
        guard let first = found.first else { return nil }
        let name = "\(path) (\(first.entry.name))"
        let inner: any RecordReader
        switch first.signature {
        case .btsnoop:
            inner = try BtsnoopReader(input: first.input, path: name, compressed: compressed || first.gzip)
        case .pcap(let bigEndian):
            inner = try PcapFile.open(path: name, input: first.input, container: .pcap, bigEndian: bigEndian,
                                      compressed: compressed || first.gzip, spool: true)
        case .pcapng:
            inner = try PcapFile.open(path: name, input: first.input, container: .pcapng, bigEndian: false,
                                      compressed: compressed || first.gzip, spool: true)
        case .packetLogger(let bigEndian):
            inner = PacketLoggerReader(input: first.input, path: name, bigEndian: bigEndian,
                                       compressed: compressed || first.gzip)
        case .zip, .text, .gzip:
            return nil
        }
        var notes: [String] = []
        if found.count > 1 {
            notes.append("the zip holds \(found.count) captures: read \(first.entry.name); not read: "
                         + found.dropFirst().map(\.entry.name).joined(separator: ", "))
        }
        return ZipEntryReader(inner, notes: notes)
    }

    /// `it holds 3 entries: a.txt, b.bin, …`: what a zip with no capture did hold.
    static func contentsList(_ entries: [ZipCentralEntry]) -> String {
        let names = entries.prefix(10).map(\.name).joined(separator: ", ")
        return "it holds \(entries.count) entr\(entries.count == 1 ? "y" : "ies")"
            + (entries.isEmpty ? "" : ": " + names + (entries.count > 10 ? ", …" : ""))
    }
}

/// A capture read from a zip entry: its reader's records, with what the zip held beside it as
/// warnings before the reader's own.
final class ZipEntryReader: RecordBatchReader {
    private let inner: any RecordReader
    private let batching: (any RecordBatchReader)?
    private let notes: [CaptureDiagnostic]

    init(_ inner: any RecordReader, notes: [String]) {
        self.inner = inner
        batching = inner as? any RecordBatchReader
        self.notes = notes.map {
            CaptureDiagnostic(severity: .warning, kind: .other, file: inner.info.path, recordNumber: nil, byteOffset: nil,
                              message: $0)
        }
    }

    var info: CaptureInfo { inner.info }
    var diagnostics: [CaptureDiagnostic] { notes + inner.diagnostics }
    func next() -> CaptureRecord? { inner.next() }

    func nextBatch(upTo count: Int) -> [CaptureRecord] {
        if let batching { return batching.nextBatch(upTo: count) }
        var batch: [CaptureRecord] = []
        while batch.count < count, var record = inner.next() {
            record.copyPayloadOut()
            batch.append(record)
        }
        return batch.reversed()
    }
}
