import ArgumentParser
import BLEBase
import BLECaptureFormats
import BLEReports

/// Options every command that reads a capture shares.
struct InputOptions: ParsableArguments {
    @Argument(help: "The capture file ('-' for standard input).")
    var capture: String

    init() {}

    init(capture: String) { self.capture = capture }

    /// Opens the capture or exits with code 2 and a message naming the file.
    func open() throws -> any RecordReader {
        do {
            return try CaptureFile.open(capture)
        } catch {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
    }
}
