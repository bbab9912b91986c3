import AnalyzerTestSupport
import BLECaptureFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the project's own sample captures into `Samples/` (or the folder given as the first
/// argument): the demo-lock scenario in every container bledecode reads. The tests check that the
/// committed files equal what this produces, so run it after changing a scenario.
let folder = CommandLine.arguments.dropFirst().first ?? "Samples"
let records = SampleScenarios.demoLock().records
let outputs: [(String, [UInt8])] = [
    ("demo-lock.btsnoop", CaptureWriter.btsnoop(records)),
    ("demo-lock.pcap", CaptureWriter.pcap(records, linkType: 201)),
    ("demo-lock.pcapng", CaptureWriter.pcapng(records, linkType: 201)),
    ("demo-lock.pklg", CaptureWriter.packetLogger(records, bigEndian: true)),
    ("demo-lock.le.pklg", CaptureWriter.packetLogger(records, bigEndian: false)),
    ("demo-lock.btsnoop.gz", CaptureWriter.gzip(CaptureWriter.btsnoop(records))),
]
// The vendor samples of docs/profiles.md, in btsnoop only.
let vendorOutputs: [(String, [UInt8])] = [
    ("light-controller.btsnoop", CaptureWriter.btsnoop(SampleScenarios.lightController().records)),
    ("battery-monitor.btsnoop", CaptureWriter.btsnoop(SampleScenarios.batteryMonitorScenario().records)),
]
for (name, bytes) in outputs + vendorOutputs {
    let path = folder + "/" + name
    guard let file = fopen(path, "wb") else {
        print("make-samples: cannot write \(path)")
        exit(1)
    }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
    print("wrote \(path) (\(bytes.count) bytes)")
}
