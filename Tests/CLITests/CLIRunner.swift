import AnalyzerTestSupport
import Foundation
import Testing

/// A class of the test bundle, for `Bundle(for:)`.
private final class BuildFolderMarker {}

/// Runs the built `bledecode` executable (next to the test bundle in the build folder).
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    static let executable = buildFolder.appendingPathComponent("bledecode").path

    /// Where `swift build` put the products. On macOS `swift test` runs the tests in a helper of
    /// the toolchain (xctest, swiftpm-testing-helper) that loads the test bundle from there; on
    /// Linux the tests are an executable there.
    static var buildFolder: URL {
        #if os(macOS)
        Bundle(for: BuildFolderMarker.self).bundleURL.deletingLastPathComponent()
        #else
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        #endif
    }

    /// Writes `capture` to a temporary file named `*.suffix` and gives its path to `body`; the
    /// file is removed afterwards.
    static func withCapture<T>(_ capture: [UInt8], suffix: String, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-\(UUID().uuidString).\(suffix)")
        try Data(capture).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    static func run(_ arguments: [String], stdin: Data? = nil, executable: String = CLI.executable) throws -> CLIRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = SharedCaptures.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        // Output goes to temporary files, not pipes: reading a pipe while other tests start
        // processes can fail with EINTR inside Foundation (a crash on Linux).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bledecode-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout"), errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func sample(_ name: String) -> String { "Samples/" + name }
}

/// Golden files under Tests/CLITests/Golden. `UPDATE_GOLDEN=1 swift test` rewrites them.
enum Golden {
    static let folder = SharedCaptures.packageRoot.appendingPathComponent("Tests/CLITests/Golden")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
            Issue.record("""
                \(name) differs at line \(line + 1):
                  expected: \(line < e.count ? String(e[line]) : "<end>")
                  actual:   \(line < a.count ? String(a[line]) : "<end>")
                """, sourceLocation: sourceLocation)
        }
    }
}
