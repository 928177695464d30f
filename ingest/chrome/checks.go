package chrome

import (
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// checkBalance follows B/E nesting per thread on the first sequential
// pass and reports E events without an open B.
func (s *Source) checkBalance() {
	switch s.rec.ph {
	case 'B':
		s.depth[s.rec.thread]++
	case 'E':
		if s.depth[s.rec.thread] > 0 {
			s.depth[s.rec.thread]--
			return
		}
		s.unmatched++
		s.warn(core.Warning{Time: s.ev.Time, Stream: -1, Count: 1, Kind: "unmatched-end",
			Message: fmt.Sprintf("E event %q at %s (%s) closes no open B slice: ignored by the state analysis",
				s.ev.Class.Name, core.FormatTimestamp(s.ev.Time), s.threadLabel(s.rec.thread))})
	}
}

func (s *Source) threadLabel(th int32) string {
	t := &s.cat.threads[th]
	return "pid " + t.pid + ", tid " + t.tid
}

// finishChecks reports, at the end of the first full pass, the slices
// still open.
func (s *Source) finishChecks() {
	if s.seeked {
		return
	}
	var open int64
	for _, d := range s.depth {
		open += int64(d)
	}
	if open > 0 {
		s.warn(core.Warning{Time: core.Time(s.end), Stream: -1, Count: open, Kind: "unmatched-begin",
			Message: fmt.Sprintf("%d B slice(s) have no E: closed at the end of the trace", open)})
	}
	if s.dropped > 0 {
		s.warnings = append(s.warnings, core.Warning{Stream: -1, Count: s.dropped, Kind: core.WarningMore,
			Message: fmt.Sprintf("%d more warnings not listed", s.dropped)})
	}
}

func (s *Source) warn(w core.Warning) {
	if len(s.warnings) >= maxWarnings {
		s.dropped++
		return
	}
	if w.Stream == 0 {
		w.Stream = -1
	}
	s.warnings = append(s.warnings, w)
}
