package index

import (
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// encodeStats returns the whole trace's statistics, summed by the
// recorder while the analyses wrote (package kstats), as the bytes of
// their section: stats.Compute answers a whole-trace query from it. nil
// when there is no recorder (no event) or it followed too many threads.
func encodeStats(whole *kstats.Recorder, end core.Time) ([]byte, error) {
	if whole == nil {
		return nil, nil
	}
	return whole.Encode(end, kstats.StoredTop)
}
