// Module AnalyzerTestSupport: see docs/architecture.md.
