package frame

import (
	"context"

	"github.com/tracetui/tracetui/core"
)

// WakeKeys are the attributes the frame reads to say what ended the
// selected thread's wait at the cursor: its status and its Waker.
type WakeKeys struct{ Status, Waker core.Key }

// readWaker returns the Waker interval that starts where the wait at the
// cursor ends (ok false when the cursor is not on a wait, or no wake-up
// ended it).
func readWaker(ctx context.Context, h core.History, wk WakeKeys, atCursor map[core.Key]core.Interval) (core.Interval, bool) {
	if wk.Waker < 0 {
		return core.Interval{}, false
	}
	st, ok := atCursor[wk.Status]
	if !ok || st.Value.Kind() != core.KindInt32 || core.ThreadStatus(st.Value.Int()) != core.ThreadWaitBlocked {
		return core.Interval{}, false
	}
	if _, end := h.Bounds(); st.End >= end {
		return core.Interval{}, false
	}
	iv, _, err := h.Single(ctx, wk.Waker, st.End+1)
	if err != nil || iv.Start != st.End+1 {
		return core.Interval{}, false
	}
	return iv, true
}
