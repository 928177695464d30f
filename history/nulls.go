package history

import (
	"github.com/tracetui/tracetui/core"
)

// First nulls.
//
// Every key is null from the start of the trace until its first change,
// and that interval is stored (as Trace Compass does) so that a query at
// any instant finds every key. It ends when the key first changes, which
// for most keys is when the trace first mentions them: anywhere in the
// trace. Placed among the other intervals that end then, one such
// interval starting at the trace's start lands in nearly every R-tree of
// the trace, and every R-tree's bounding box reaches back to the start: a
// query for two keys at the start of a 1.29 M-event ftrace capture (9 309
// keys) read 244 nodes, about one per R-tree, for two intervals.
//
// The R-SHT builder therefore holds them back, nullGroupLen at most, and
// sends them together between two R-buffer loads (the buffer being filled
// is loaded first, then the nulls are loaded on their own): they fill
// R-trees of their own, sorted by (class, key) as any R-buffer is, each
// over the keys of one group, and the query above reads 7 nodes. The last
// group goes at EndStates. The summaries still see every null in time
// order (emit's hook runs when it ends). The eSHT and SHT layouts place
// them as they come, as the article's builders do.

// nullGroupLen is the most first nulls held back (12 bytes each): about an
// R-tree of height 3 of them, so a trace of millions of keys cuts the
// other intervals' R-buffer a few times only.
const nullGroupLen = 1 << 18

// heldNull is a first null held back: key was null from the trace's start
// to end.
type heldNull struct {
	key core.Key
	end core.Time
}

// heldPageLen is the first nulls a page of the group holds (64 KiB):
// pages are reused from group to group, never copied to grow.
const heldPageLen = 1 << 12

// holdNull holds key's first null back, and sends the group when it is
// full.
func (b *Builder) holdNull(key core.Key, end core.Time) error {
	p := b.nullsHeld / heldPageLen
	if p == len(b.nulls) {
		b.nulls = append(b.nulls, make([]heldNull, heldPageLen))
	}
	b.nulls[p][b.nullsHeld%heldPageLen] = heldNull{key, end}
	b.nullsHeld++
	if b.nullsHeld < b.nullGroup {
		return nil
	}
	return b.sendNulls()
}

// sendNulls sends the first nulls held back, loaded on their own: the
// R-buffer is loaded before and after them.
func (b *Builder) sendNulls() error {
	if b.nullsHeld == 0 {
		return nil
	}
	if err := b.cutBuffer(); err != nil {
		return err
	}
	for i := range b.nullsHeld {
		n := &b.nulls[i/heldPageLen][i%heldPageLen]
		if err := b.send(n.key, b.start, n.end, core.Null()); err != nil {
			return err
		}
	}
	b.nullsHeld = 0
	return b.cutBuffer()
}
