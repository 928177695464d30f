package index

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
)

// Section names in the index file (history sections).
const (
	sectionInfo   = "trace-info"
	sectionEvents = "event-index"
	// sectionChromeOrder holds a plain Chrome trace's event order (see
	// chrome.OrderWriter): the event table reads events by stored offset
	// instead of sorting the trace again.
	sectionChromeOrder = "chrome-order"
	// sectionReaderState holds what the trace's readers need at open,
	// for a source that keeps it (tracedat.Source.IndexState: the event
	// formats and symbols the trace.dat's events use; ctf.Reader's: the
	// parsed metadata).
	sectionReaderState = "reader-state"
)

// IndexSummary is what `tracetui index --json` and `info --json` print.
type IndexSummary struct {
	Format     string    `json:"format"`
	Events     int64     `json:"events"`
	LostEvents int64     `json:"lost_events"`
	Streams    int       `json:"streams"`
	StartNS    core.Time `json:"start_ns"`
	EndNS      core.Time `json:"end_ns"`
	Attributes int       `json:"attributes"`
	Intervals  int64     `json:"intervals"`
	IndexBytes int64     `json:"index_bytes"`
	Depth      int       `json:"depth"`
	Nodes      int       `json:"nodes"`
	BuildMS    float64   `json:"build_ms"`
	Layout     string    `json:"layout"`
	// Warnings is the true number of problems met reading the trace;
	// FirstWarnings the first few messages.
	Warnings      int64    `json:"warnings"`
	FirstWarnings []string `json:"first_warnings"`
}

// firstWarnings is how many messages IndexSummary.FirstWarnings holds.
const firstWarnings = 5

// IndexInfo describes an index: the summary, and what the browser and
// the build need besides.
type IndexInfo struct {
	IndexSummary
	Trace       string         `json:"trace"`       // absolute path of the trace
	Index       string         `json:"index"`       // path of the index file
	Fingerprint string         `json:"fingerprint"` // what the index was built from
	Warnings    []core.Warning `json:"warnings,omitempty"`
}

// maxStoredWarnings bounds the warnings kept in the index: a trace with a
// garbled line every few bytes must not make the index huge.
const maxStoredWarnings = 1000

// storedInfo is the trace-info section: what only the build knows.
type storedInfo struct {
	Format      string         `json:"format"`
	Events      int64          `json:"events"`
	LostEvents  int64          `json:"lost_events"`
	Streams     int            `json:"streams"`
	BuildMS     float64        `json:"build_ms"`
	Trace       string         `json:"trace"`
	Fingerprint string         `json:"fingerprint"`
	Warnings    []core.Warning `json:"warnings,omitempty"`
	// WarningCount is the number of warnings before Warnings was cut to
	// maxStoredWarnings (absent from older indexes: then counted from
	// Warnings).
	WarningCount int64 `json:"warning_count,omitempty"`
}

// readInfo combines the stored section with the history's header.
func readInfo(tree *history.Tree, path string) (IndexInfo, error) {
	sec, err := tree.Section(sectionInfo)
	if err != nil {
		return IndexInfo{}, err
	}
	raw, err := io.ReadAll(io.LimitReader(sec, 64<<20))
	if err != nil {
		return IndexInfo{}, fmt.Errorf("reading the trace info: %w", err)
	}
	var st storedInfo
	if err := json.Unmarshal(raw, &st); err != nil {
		return IndexInfo{}, fmt.Errorf("%w: trace info: %v", history.ErrCorrupt, err)
	}
	hi := tree.Info()
	count := st.WarningCount
	if count == 0 {
		count = core.WarningCount(st.Warnings)
	}
	first := []string{}
	for _, w := range st.Warnings[:min(len(st.Warnings), firstWarnings)] {
		first = append(first, w.Message)
	}
	return IndexInfo{
		IndexSummary: IndexSummary{
			Format: st.Format, Events: st.Events, LostEvents: st.LostEvents, Streams: st.Streams,
			StartNS: hi.Start, EndNS: hi.End, Attributes: hi.Attributes, Intervals: hi.Intervals,
			IndexBytes: hi.FileBytes, Depth: hi.Depth, Nodes: hi.Nodes, BuildMS: st.BuildMS,
			Layout: hi.Layout.String(), Warnings: count, FirstWarnings: first,
		},
		Trace: st.Trace, Index: path, Fingerprint: st.Fingerprint, Warnings: st.Warnings,
	}, nil
}
