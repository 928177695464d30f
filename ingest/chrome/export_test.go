package chrome

// Exported for the tests of package chrome_test, which run the reader
// with its state analysis (ingest/states/chrome, which imports this
// package, so an internal test cannot).
const (
	SampleDir   = sampleDir
	MinRunBytes = minRunBytes
)

// BenchIngest and BenchAnalysis let chrome_test benchmark the reader with
// the analysis.
var BenchIngest = benchIngest

type BenchAnalysis = analysis
