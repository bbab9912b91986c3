import ArgumentParser
import BLEBase
import BLECaptureFormats
import BLEReports

/// The one place that writes diagnostics to standard error, escaped for the terminal.
enum Diagnostics {
    static func warning(_ message: String) { emit("warning", message) }

    /// ArgumentParser's own message (usage and help text), printed as is.
    static func usage(_ message: String) {
        let stderr = BufferedOutput(fileDescriptor: 2, capacity: 1 << 12)
        stderr.line(message)
        stderr.flush()
    }
    static func error(_ message: String) { emit("error", message) }

    private static func emit(_ level: String, _ message: String) {
        let stderr = BufferedOutput(fileDescriptor: 2, capacity: 1 << 12)
        stderr.line("bledecode: \(level): " + TerminalText.escape(message))
        stderr.flush()
    }

    /// Prints what the reader found wrong with the file; returns the exit code it implies.
    static func report(_ diagnostics: [CaptureDiagnostic]) -> ExitCode {
        var code = ExitCode.success
        for diagnostic in diagnostics {
            switch diagnostic.severity {
            case .warning: warning(diagnostic.description)
            case .error:
                error(diagnostic.description)
                code = ExitCode(1)
            }
        }
        return code
    }
}
