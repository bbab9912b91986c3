import BLEAnalysis
import BLECaptureFormats
import FuzzSupport
import BLEReports
import BLEVendorDecoding

FuzzInput.run(fuzzPipeline)

/// The whole pipeline on any file: detection, reader, decoding, sessions, vendor decoding with
/// the demo-lock profile, and the JSON report and text timeline rendered. The timeline written a
/// lane at a time (as the CLI does) must equal the whole one: a difference traps.
func fuzzPipeline(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.withFile(FuzzInput.bytes(start, count)) { path in
        guard let reader = try? CaptureFile.open(path) else { return }
        let analysis = Analysis.run(reader, profiles: DemoLockProfile.profiles)
        ReportJSON.write(analysis, commandLine: "fuzz") { _ in }
        let text = TimelineText(style: Style(enabled: false), verbose: true)
        var streamed = ""
        text.render(analysis, building: TimelineBuilder(analysis), filter: TimelineFilter()) { streamed += $0 }
        guard streamed == text.render(analysis, timeline: Timeline(analysis)) else {
            fatalError("the timeline written a lane at a time differs from the whole one")
        }
    }
    return 0
}

/// Samples/profiles/demo-lock.yaml, loaded once (the working directory is the package's).
enum DemoLockProfile {
    static let profiles: [Profile] = (try? ProfileLoader.load(path: "Samples/profiles/demo-lock.yaml")).map { [$0] } ?? []
}
