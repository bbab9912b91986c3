import AnalyzerTestSupport
import Testing

/// Inputs the fuzzers found (Fuzz/regressions), run through the command line to the end.
struct FuzzRegressionTests {
    /// fuzz-pipeline: a pcapng whose records carry timestamps near Int64.max. An ATT request's
    /// 30 s deadline overflowed in the session analysis (SIGILL). Timestamps are now clamped to
    /// ±2^58 µs where records are made; the damaged end of the file is the only error.
    @Test func requestDeadlinePastInt64MaxIsNoCrash() throws {
        let path = SharedCaptures.packageRoot.appendingPathComponent("Fuzz/regressions/fuzz-pipeline/deadline-past-int64-max.pcapng").path
        let profile = SharedCaptures.packageRoot.appendingPathComponent("Samples/profiles/demo-lock.yaml").path
        let run = try CLI.run([path, "--json", "--profile", profile])
        #expect(run.status == 1)
        #expect(run.stderr.contains("record 66: libpcap: block total length in header and trailer don't match\n"))
        #expect(run.stdout.contains("\"dangling-connection\""))
    }
}
