package history

import (
	"errors"
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// ErrStatesEnded: a state change, or a key, after [Builder.EndStates].
var ErrStatesEnded = errors.New("history: states already ended")

// EndStates ends every attribute's state at end (inclusive), as Close
// would, and releases the current states, the largest part of a build's
// memory (13 bytes per attribute: 167 MB at 12.9 M attributes). A caller
// that still has work after the last change (the process tree's rows,
// built from the attribute tree) calls it first, so that this work does
// not add its memory to theirs, and so that the tree side places the last
// states while the caller works. After it Modify fails with
// [ErrStatesEnded], Value returns null for every key and no key may be
// added; sections may still be added; Close must be given the same end.
func (b *Builder) EndStates(end core.Time) error {
	switch {
	case b.done:
		return core.ErrClosed
	case b.err != nil:
		return b.err
	case b.ended:
		return fmt.Errorf("%w: EndStates called twice", ErrStatesEnded)
	case end < b.last:
		return fmt.Errorf("%w: states ended at %d before a change at %d", core.ErrTimeOrder, end, b.last)
	}
	if err := b.endStates(end); err != nil {
		b.err = err
		return err
	}
	return nil
}

// collectBeforeLastStates is the key count from which the end of the
// states collects garbage before sorting them: the build of 12.9 M keys
// then peaks at 845 MB instead of 1.02 GB, for one collection (about 5%
// of its CPU time); below a million keys the sort is too small to matter.
const collectBeforeLastStates = 1 << 20

// ReturnMemoryFrom is the key count from which the build gives the
// memory it freed back to the system as it changes phase (the analyses'
// records, then the current states): at 12.9 M keys the process kept
// 400 MB of such pages, its peak went from 982 MB to 913 MB. A smaller
// build does not pay for it: the pages given back are faulted in again,
// a few hundred milliseconds at 1.6 M keys.
const ReturnMemoryFrom = 1 << 22

// endStates emits every key's last state, [since, end], and drops the
// current states.
func (b *Builder) endStates(end core.Time) error {
	b.grow()
	// The last states in order of start, so the long ones come first and
	// the eSHT rule puts the rest below them instead of stacking roots.
	// They go through the pipeline like the others: the tree side places
	// the last batches of the trace while this side sorts them.
	if b.state.len() >= collectBeforeLastStates && b.opts.Reclaim != nil {
		// The sort below takes 4 bytes per key in one allocation, at the
		// build's peak: collect first what the analyses left (their
		// per-thread records are garbage once they have finished), so
		// that it does not land on top of them while a collection runs,
		// and give their pages back to the system: scattered among the
		// live ones, they cannot hold the sort's one array, and the
		// runtime returns them only slowly (at 12.9 M keys the process
		// kept 400 MB of such pages while the rows and the attribute
		// tree's encoding took new ones). Below ReturnMemoryFrom keys
		// that costs more (the pages are faulted in again) than it saves.
		b.opts.Reclaim(b.state.len() >= ReturnMemoryFrom)
	}
	// The last group of first nulls held back goes first (nulls.go); the
	// last states are then sent as they come.
	if err := b.sendNulls(); err != nil {
		return err
	}
	b.holdNulls = false
	for i, k := range lastStatesOrder(b.state, b.start) {
		if i%(1<<15) == 1<<15-1 && b.opts.Context != nil {
			// Millions of keys take seconds here: a cancelled build stops
			// within milliseconds (issue 32: SIGTERM waited 10.6 s).
			if err := b.opts.Context.Err(); err != nil {
				return fmt.Errorf("history: end of the states: %w", err)
			}
		}
		if err := b.emit(k, b.state.at(k).since(), end, b.state.value(k)); err != nil {
			return err
		}
	}
	// Nothing more is emitted: the tree side places what is queued, and
	// the summary pass starts, while the caller arranges the rows and Close
	// encodes the attribute tree.
	b.sendLast()
	b.startSummary(end)
	// The current states are no longer needed: their memory goes back
	// before the rows and the attribute tree's encoding take their own.
	b.ended, b.endedAt, b.endedKeys = true, end, b.tree.Len()
	b.state = newStateTable()
	return nil
}

// checkEnded returns the error of a Close whose end or key count differs
// from those of EndStates.
func (b *Builder) checkEnded(end core.Time) error {
	if end != b.endedAt {
		return fmt.Errorf("%w: closed at %d, states ended at %d", ErrStatesEnded, end, b.endedAt)
	}
	if n := b.tree.Len(); n != b.endedKeys {
		return fmt.Errorf("%w: %d keys added after the end of the states", ErrStatesEnded, n-b.endedKeys)
	}
	return nil
}
