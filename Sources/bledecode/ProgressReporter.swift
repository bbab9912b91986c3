import BLEAnalysis
import ArgumentParser
import BLEBase
import Foundation
import BLEReports
import BLESessions
import BLEVendorDecoding

/// A progress bar on standard error while a long capture is read, only on a terminal and only
/// for files whose size tells how far along the reader is.
struct ProgressReporter {
    private var bar: TimelineProgress
    private let stderr = BufferedOutput(fileDescriptor: 2, capacity: 1 << 10)

    init?(path: String, compressed: Bool) {
        guard isatty(2) == 1, !compressed, path != "-",
              let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int,
              size >= TimelineProgress.minimumBytes else { return nil }
        bar = TimelineProgress(totalBytes: size)
    }

    mutating func advance(to offset: Int) {
        guard let line = bar.update(offset: offset, nowUs: Self.now()) else { return }
        stderr.write("\r" + line)
        stderr.flush()
    }

    func finish() {
        guard bar.drawn else { return }
        stderr.write("\r\u{1B}[K")
        stderr.flush()
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}
