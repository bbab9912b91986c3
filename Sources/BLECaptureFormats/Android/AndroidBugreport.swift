/// Opens Android bug reports: the text (`bugreport-*.txt`) or the zip `adb bugreport` writes.
/// Either is recognised by content; the records come from the `BTSNOOP_LOG_SUMMARY` section.
enum AndroidBugreport {
    /// A text input: its summary's reader, or nil when the text has no section and is not a bug
    /// report either (not a capture at all). A bug report without a section is an error.
    static func open(text input: BufferedInput, path: String, compressed: Bool) throws(CaptureError) -> BugreportReader? {
        switch try BugreportScanner.scan(input, file: path) {
        case .section(let section):
            return try BugreportReader(section: section, path: path, source: path, entry: nil, compressed: compressed)
        case .noSection(let dumpstate):
            guard dumpstate else { return nil }
            throw CaptureError(file: path, message: "no BTSNOOP_LOG_SUMMARY section in \(path): the bug report holds no Bluetooth HCI summary")
        }
    }

    /// A zip input: the first capture file it holds (`ZipCaptures.swift`); else the
    /// `bugreport-*.txt` entries first, then any other `.txt` entry, until one holds a section.
    /// `input` is read through a temporary copy when it is not a plain file (standard input, gzip).
    static func open(zip input: BufferedInput, path: String, isFile: Bool, compressed: Bool) throws(CaptureError) -> any RecordReader {
        let archive: ZipArchive
        if isFile {
            archive = try ZipArchive(path: path)
        } else {
            let spool = try TemporarySpool(copying: input, file: path)
            defer { spool.remove() }
            archive = try ZipArchive(path: spool.path, name: path)
        }
        if let capture = try openCapture(in: archive, path: path, compressed: compressed) { return capture }
        let texts = archive.entries.filter { $0.name.hasSuffix(".txt") }
        let candidates = texts.filter { isBugreportName($0.name) } + texts.filter { !isBugreportName($0.name) }
        for entry in candidates {
            let source = "\(path) (\(entry.name))"
            let scan = try BugreportScanner.scan(try archive.contents(of: entry), file: source)
            if case .section(let section) = scan {
                return try BugreportReader(section: section, path: path, source: source, entry: entry.name,
                                           compressed: compressed)
            }
        }
        let searched = candidates.isEmpty ? "it has no .txt entry" : "searched \(candidates.map(\.name).joined(separator: ", "))"
        throw CaptureError(file: path, message: "no capture file and no BTSNOOP_LOG_SUMMARY section in \(path) (\(searched); "
                           + contentsList(archive.entries) + ")")
    }

    /// `bugreport-<device>-<build>-<date>.txt`, in any folder of the zip.
    private static func isBugreportName(_ name: String) -> Bool {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        return base.hasPrefix("bugreport") && base.hasSuffix(".txt")
    }
}
