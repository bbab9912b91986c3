import ArgumentParser
import Foundation
import BLEReports

/// Where reports go: standard output or a file named with `-o`.
enum Output {
    static func open(_ path: String?) throws -> BufferedOutput {
        guard let path else { return BufferedOutput() }
        let fd = Foundation.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            Diagnostics.error("\(path): cannot write: \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        return BufferedOutput(fileDescriptor: fd, closeWhenDone: true)
    }

    /// Colour only on a terminal, never when NO_COLOR is set (https://no-color.org), unless forced.
    static func colorAllowed(_ choice: String) -> Bool {
        switch choice {
        case "always": return true
        case "never": return false
        default:
            let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            return !noColor && isatty(1) == 1
        }
    }
}
