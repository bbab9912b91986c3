#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BLEBase

/// A zip file read by random access: the central directory first (APPNOTE.TXT §4.3.6), then
/// only the entries asked for, streamed, so a 100 MB bug report's other entries are never read.
final class ZipArchive {
    /// The largest central directory read (a bug report zip's is a few hundred KiB).
    static let maximumDirectoryBytes = 16 << 20

    let path: String
    private let descriptor: Int32
    let entries: [ZipCentralEntry]

    /// Reads the central directory of the zip at `path`, named `name` in messages (a temporary
    /// copy of standard input is not the user's file). ZIP64 archives are refused.
    init(path: String, name: String? = nil) throws(CaptureError) {
        let name = name ?? path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw CaptureError(file: name, message: "cannot open: \(String(cString: strerror(errno)))")
        }
        do throws(CaptureError) {
            entries = try Self.centralDirectory(fd: fd, path: name)
        } catch {
            close(fd)
            throw error
        }
        self.path = name
        descriptor = fd
    }

    private static func centralDirectory(fd: Int32, path: String) throws(CaptureError) -> [ZipCentralEntry] {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw CaptureError(file: path, message: "cannot stat: \(String(cString: strerror(errno)))")
        }
        let end = try endOfCentralDirectory(fd: fd, path: path, fileSize: Int(status.st_size))
        guard !end.record.isZip64 else {
            throw CaptureError(file: path, byteOffset: end.offset, message: "ZIP64 archives are not supported")
        }
        let directoryOffset = Int(end.record.directoryOffset)
        let directorySize = Int(end.record.directorySize)
        guard directorySize <= maximumDirectoryBytes, directoryOffset + directorySize <= end.offset else {
            throw CaptureError(file: path, byteOffset: end.offset,
                               message: "zip central directory of \(directorySize) bytes at byte \(directoryOffset) does not fit before its end record")
        }
        var reader = ByteReader(try read(fd: fd, path: path, at: directoryOffset, count: directorySize),
                                layer: .capture, baseOffset: directoryOffset)
        var entries: [ZipCentralEntry] = []
        for number in 1..<(Int(end.record.entries) + 1) {
            do throws(DecodeError) {
                entries.append(try ZipCentralEntry(parsing: &reader))
            } catch {
                throw CaptureError(file: path, recordNumber: number, byteOffset: error.offset,
                                   message: "damaged zip central directory entry: \(error)")
            }
        }
        return entries
    }

    deinit { close(descriptor) }

    /// The bytes of `entry`, inflated when it is deflated, read as they are asked for.
    func contents(of entry: ZipCentralEntry) throws(CaptureError) -> any ByteSource {
        guard !entry.isEncrypted else {
            throw CaptureError(file: path, message: "zip entry \(entry.name) is encrypted")
        }
        let headerOffset = Int(entry.localHeaderOffset)
        var reader = ByteReader(try Self.read(fd: descriptor, path: path, at: headerOffset, count: ZipLocalHeader.size),
                                layer: .capture, baseOffset: headerOffset)
        let header: ZipLocalHeader
        do throws(DecodeError) {
            header = try ZipLocalHeader(parsing: &reader)
        } catch {
            throw CaptureError(file: path, byteOffset: error.offset, message: "damaged zip local header of \(entry.name): \(error)")
        }
        let dataOffset = headerOffset + ZipLocalHeader.size + header.variableLength
        let framing: Inflater.Framing?
        switch entry.method {
        case 0: framing = nil
        case 8: framing = .raw
        default:
            throw CaptureError(file: path, byteOffset: headerOffset,
                               message: "zip entry \(entry.name) uses compression method \(entry.method); only stored (0) and deflate (8) are read")
        }
        return try ZipEntrySource(archive: self, name: entry.name, offset: dataOffset,
                                  length: Int(entry.compressedSize), framing: framing)
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func read(at offset: Int, count: Int) throws(CaptureError) -> [UInt8] {
        try Self.read(fd: descriptor, path: path, at: offset, count: count)
    }

    private static func read(fd: Int32, path: String, at offset: Int, count: Int) throws(CaptureError) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let got = pread(fd, buffer.baseAddress.map { $0 + initialized }, count - initialized,
                                off_t(offset + initialized))
                if got > 0 {
                    initialized += got
                } else if got == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        guard failure == 0 else {
            throw CaptureError(file: path, byteOffset: offset, message: "read error: \(String(cString: strerror(failure)))")
        }
        return bytes
    }

    /// Finds the end record by scanning back from the end over at most a maximal comment.
    private static func endOfCentralDirectory(fd: Int32, path: String,
                                              fileSize: Int) throws(CaptureError) -> (record: ZipEndOfCentralDirectory, offset: Int) {
        let tailLength = min(fileSize, ZipEndOfCentralDirectory.size + Int(UInt16.max))
        let tailOffset = fileSize - tailLength
        let tail = ByteReader(try read(fd: fd, path: path, at: tailOffset, count: tailLength),
                              layer: .capture, baseOffset: tailOffset)
        var position = tailLength - ZipEndOfCentralDirectory.size
        while position >= 0 {
            var reader = tail
            if (try? reader.skip(position)) != nil,
               let record = try? ZipEndOfCentralDirectory(parsing: &reader),
               Int(record.commentLength) <= reader.remaining {
                return (record, tailOffset + position)
            }
            position -= 1
        }
        throw CaptureError(file: path, byteOffset: fileSize,
                           message: "no zip end of central directory record: the zip is cut short or damaged")
    }
}

/// One zip entry's bytes: stored ones as they are, deflated ones inflated (raw deflate).
final class ZipEntrySource: ByteSource {
    private let archive: ZipArchive
    private let name: String
    private var offset: Int
    private var remaining: Int
    private let inflater: Inflater?

    init(archive: ZipArchive, name: String, offset: Int, length: Int, framing: Inflater.Framing?) throws(CaptureError) {
        self.archive = archive
        self.name = name
        self.offset = offset
        remaining = length
        if let framing {
            guard let inflater = try? Inflater(framing) else {
                throw CaptureError(file: archive.path, message: "cannot start zlib decompression")
            }
            self.inflater = inflater
        } else {
            inflater = nil
        }
    }

    func read(max: Int) throws(CaptureError) -> [UInt8] {
        guard let inflater else { return try readCompressed(max: max) }
        while !inflater.ended {
            if inflater.needsInput {
                let chunk = try readCompressed(max: BufferedInput.chunkSize)
                guard !chunk.isEmpty else {
                    throw CaptureError(file: archive.path, byteOffset: offset,
                                       message: "zip entry \(name) ends inside its deflate data")
                }
                inflater.supply(chunk)
            }
            do throws(Inflater.Failure) {
                let bytes = try inflater.inflate(max: max)
                if !bytes.isEmpty { return bytes }
            } catch {
                throw CaptureError(file: archive.path, byteOffset: offset,
                                   message: "zip entry \(name) is corrupt at compressed byte \(error.compressedOffset): \(error.reason)")
            }
        }
        return []
    }

    private func readCompressed(max: Int) throws(CaptureError) -> [UInt8] {
        let bytes = try archive.read(at: offset, count: min(max, remaining))
        offset += bytes.count
        remaining -= bytes.count
        return bytes
    }
}
