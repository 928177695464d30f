package index

import (
	"bytes"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// addStatsSection stores the whole trace's statistics, summed by the
// recorder while the analyses wrote (package kstats), as their section:
// stats.Compute answers a whole-trace query from it.
func addStatsSection(b *history.Builder, whole *kstats.Recorder, end core.Time) error {
	raw, err := kstats.Encode(whole.Report(end), kstats.StoredTop)
	if err != nil {
		return err
	}
	return b.AddSection(kstats.SectionName, int64(len(raw)), bytes.NewReader(raw))
}
