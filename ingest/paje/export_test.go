package paje

// Exported for the tests of package paje_test, which run the reader with
// its state analysis (ingest/states/paje imports this package, so an
// internal test cannot).
const MinimalDefs = minimalDefs

var WriteTrace = writeTrace
