package gantt

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
)

// The sampled stacks of a profile (perf record -g) are read in one pass
// over the trace the first time a flame graph asks for them (ingest/
// trace's Profile, about 5 µs a sample: seconds for a million), then
// kept. When the index holds samples (Threads/<tid>/Samples), the Gantt
// starts that pass as it opens, so that the first F finds the profile
// read, or waits only for the rest of the pass (Profile serialises its
// callers). Closing the Gantt cancels it; a cancelled pass is not kept.

// profileReadMsg reports the end of the background read.
type profileReadMsg struct{ seq uint64 }

// prefetchProfile starts reading the trace's profile when it has
// samples; nil otherwise.
func (b *Gantt) prefetchProfile() tea.Cmd {
	p, ok := b.trace.(profiler)
	if !ok || !hasSamples(b.hist.Attributes()) {
		return nil
	}
	ctx, seq := b.profile.Start(b.ctx)
	return func() tea.Msg {
		_, _ = p.Profile(ctx) // an error shows when F asks again
		return profileReadMsg{seq}
	}
}

// hasSamples reports whether a thread of at has a Samples attribute.
func hasSamples(at *core.AttributeTree) bool {
	threads, ok := at.Lookup(core.AttrThreads)
	if !ok {
		return false
	}
	found := false
	at.EachChild(threads, func(k core.Key) {
		if !found {
			_, found = at.Child(k, core.AttrSamples)
		}
	})
	return found
}
