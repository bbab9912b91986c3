/// Something wrong with the capture file itself, found while reading it. Reading goes on past
/// damage wherever the format allows; each diagnostic names the file, the record number and the
/// byte offset so a user can find the spot with a hex editor.
public struct CaptureDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case warning, error }

    public enum Kind: String, Sendable {
        /// The file ends inside a record (the record is dropped; everything before it stands).
        case truncatedFinalRecord = "truncated-final-record"
        /// Records the capturing tool cut short (included length < original length).
        case truncatedRecords = "truncated-records"
        /// A record header with a length no record can have; reading stopped or resynchronised.
        case impossibleLength = "impossible-length"
        /// Bytes skipped to find the next plausible record.
        case resynchronised
        /// A record of a type the reader does not decode; kept raw.
        case unknownRecordType = "unknown-record-type"
        /// Anything else the reader wants a person to know (timestamps going backwards, …).
        case other
    }

    public var severity: Severity
    public var kind: Kind
    public var file: String
    /// 1-based number of the record concerned (the one that would have been next for a
    /// truncated final record).
    public var recordNumber: Int?
    /// Byte offset in the (decompressed) file.
    public var byteOffset: Int?
    public var message: String

    public init(severity: Severity, kind: Kind, file: String, recordNumber: Int?, byteOffset: Int?, message: String) {
        self.severity = severity
        self.kind = kind
        self.file = file
        self.recordNumber = recordNumber
        self.byteOffset = byteOffset
        self.message = message
    }

    /// `capture.btsnoop: record 547 at byte 23650: file ends inside the record (30 of 60 bytes)`
    public var description: String {
        var where_ = file
        if let recordNumber { where_ += ": record \(recordNumber)" }
        if let byteOffset { where_ += " at byte \(byteOffset)" }
        return "\(where_): \(message)"
    }
}

/// A file that cannot be read as a capture at all (not a capture, unsupported datalink, I/O).
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var recordNumber: Int?
    public var byteOffset: Int?
    public var message: String
    /// What kind of trouble it is, for callers that tell them apart (the library's
    /// `BLEDecodeError.kind`); the message says the rest.
    public var cause: Cause
    /// What the file plainly is instead of a capture, when its content says so (`text`: no NUL
    /// byte and no bug report): a search through a folder can pass such a file over.
    public var otherContent: String? = nil

    /// The kinds of trouble opening a capture.
    public enum Cause: Sendable, Equatable {
        /// The file could not be opened or read (or a temporary copy of it written).
        case cannotRead
        /// The bytes are not a capture, or one in a format or link type that is not read.
        case notACapture
        /// The format is read through a library this build is without (pcap without libpcap).
        case unavailable
    }

    public init(file: String, recordNumber: Int? = nil, byteOffset: Int? = nil, message: String,
                cause: Cause = .notACapture) {
        self.file = file
        self.recordNumber = recordNumber
        self.byteOffset = byteOffset
        self.message = message
        self.cause = cause
    }

    public var description: String {
        CaptureDiagnostic(severity: .error, kind: .other, file: file, recordNumber: recordNumber,
                          byteOffset: byteOffset, message: message).description
    }
}
