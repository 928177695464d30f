package index

import (
	"bytes"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// addStatsSection stores the whole trace's statistics, summed by the
// recorder while the analyses wrote (package kstats), as their section:
// stats.Compute answers a whole-trace query from it. A trace of more
// threads than the recorder follows gets none.
func addStatsSection(b *history.Builder, whole *kstats.Recorder, end core.Time) error {
	rep := whole.Report(end)
	if rep == nil {
		return nil
	}
	raw, err := kstats.Encode(rep, kstats.StoredTop)
	if err != nil {
		return err
	}
	return b.AddSection(kstats.SectionName, int64(len(raw)), bytes.NewReader(raw))
}
