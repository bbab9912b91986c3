/// Helpers for the NUL-terminated text fields of note records.
enum TextField {
    /// The bytes up to (not including) the first NUL.
    static func upToNUL(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.prefix { $0 != 0 })
    }

    /// Splits NUL-terminated fields; a last field without its NUL is kept.
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    }
}
