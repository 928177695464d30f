package chrome_test

import (
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/chrome"
	chromestates "github.com/tracetui/tracetui/ingest/states/chrome"
)

// BenchmarkIngestAnalysis is BenchmarkIngest with the state analysis.
func BenchmarkIngestAnalysis(b *testing.B) {
	chrome.BenchIngest(b, func(s core.StateSink) chrome.BenchAnalysis { return chromestates.NewAnalysis(s) })
}
