import AnalyzerTestSupport
import BLECaptureFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a large capture of a long field test (see `FieldTest`) for the benchmarks:
///
///     make-big-capture PACKETS OUT [btsnoop|monitor|pcap|pcapng|pklg] [LOCKS] [RECONNECT]
///
/// `btsnoop` is what Android writes (datalink 1002, H4); `monitor` is btsnoop with the Linux
/// monitor datalink (2001) that `btmon -w` writes, opened by a New Index record;
/// Exactly PACKETS records; LOCKS (default 24) connections are live at once; every RECONNECT
/// rounds (default 4; 0: never) one of them drops and comes back. The capture is built
/// and written round by round, so memory stays flat whatever its size.
/// Prints a message on standard error and exits with 2.
func fail(_ message: String) -> Never {
    _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let packets = Int(arguments[0]), packets > 0 else {
    fail("usage: make-big-capture PACKETS OUT [btsnoop|monitor|pcap|pcapng|pklg] [LOCKS] [RECONNECT]\n")
}
let format = arguments.count > 2 ? arguments[2] : "btsnoop"
let writers: [String: ([CaptureRecord]) -> [UInt8]] = [
    "btsnoop": { CaptureWriter.btsnoop($0) },
    "monitor": { CaptureWriter.btsnoop($0, datalink: 2001) },
    "pcap": { CaptureWriter.pcap($0, linkType: 201) },
    "pcapng": { CaptureWriter.pcapng($0, linkType: 201) },
    "pklg": { CaptureWriter.packetLogger($0, bigEndian: true) },
]
guard let writer = writers[format] else {
    fail("make-big-capture: unknown format \(format) (btsnoop, monitor, pcap, pcapng, pklg)\n")
}
let lockCount = arguments.count > 3 ? Int(arguments[3]) ?? 24 : 24
guard let file = fopen(arguments[1], "wb") else {
    fail("make-big-capture: cannot write \(arguments[1])\n")
}

/// The container's header is what the writer produces for no records; later segments drop it.
let headerSize = writer([]).count
let reconnectEvery = arguments.count > 4 ? max(0, Int(arguments[4]) ?? 4) : 4
var test = FieldTest(locks: max(1, lockCount), reconnectEvery: reconnectEvery)
var written = 0
var bytes = 0
var segment = test.opening(newIndex: format == "monitor")
var first = true
while written < packets {
    let records = Array(segment.prefix(packets - written))
    let encoded = writer(records)
    let body = first ? encoded[...] : encoded.dropFirst(headerSize)
    _ = body.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    written += records.count
    bytes += body.count
    first = false
    segment = test.nextRound()
}
fclose(file)
print("wrote \(arguments[1]): \(written) records, \(bytes) bytes (\(format), \(lockCount) live connections, "
      + (reconnectEvery == 0 ? "no reconnections)" : "a reconnection every \(reconnectEvery) rounds)"))
