/// Opens pcap and pcapng files. They are read through libpcap, which Package.swift links where the
/// platform has it (macOS, Linux); the iOS SDK has none, and a build without it refuses these files
/// with an error that says why, reading every other format as everywhere.
enum PcapFile {
    /// `input` holds the file's bytes from offset 0 (read for detection); `spool`: see `PcapReader`.
    static func open(path: String, input: BufferedInput, container: ContainerFormat, bigEndian: Bool,
                     compressed: Bool, spool: Bool) throws(CaptureError) -> any RecordReader {
        #if canImport(CBLEPcap)
        try PcapReader(path: path, input: input, container: container, bigEndian: bigEndian,
                       compressed: compressed, spool: spool)
        #else
        throw CaptureError(file: path, message: "\(container.rawValue) files are read through libpcap, which this build "
                               + "of bledecode is without (the iOS SDK has none): analyse the file with a macOS or Linux build",
                           cause: .unavailable)
        #endif
    }
}
