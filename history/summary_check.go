package history

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// checkSummaryBatch is how many keys checkSummary reads at once.
const checkSummaryBatch = 4096

// checkSummary verifies the summary section against the tree's intervals:
// each summarised key's levels are recomputed from its intervals and must
// equal the stored bytes; a marked key without levels must hold a value no
// summary can (core.SummaryByte).
func (t *Tree) checkSummary() error {
	x, err := t.summaryIndex()
	if err != nil || x == nil {
		return err
	}
	if err := x.checkStructure(); err != nil {
		return fmt.Errorf("history: %s: %w", t.path, err)
	}
	if x.start != t.hdr.start || x.end != t.hdr.end || x.keys != int(t.hdr.attrCount) {
		return fmt.Errorf("%w: summary section for [%d, %d] and %d keys, index [%d, %d] and %d", ErrCorrupt,
			x.start, x.end, x.keys, t.hdr.start, t.hdr.end, t.hdr.attrCount)
	}
	var keys []core.Key
	for k := range x.keys {
		if le.Uint64(x.words[8*(k/64):])&(1<<(k%64)) != 0 {
			keys = append(keys, core.Key(k))
		}
	}
	var (
		ivs   []core.Interval
		ch    changes
		enc   entryEncoder
		entry []byte
	)
	for lo := 0; lo < len(keys); lo += checkSummaryBatch {
		batch := keys[lo:min(lo+checkSummaryBatch, len(keys))]
		ivs = ivs[:0]
		if _, err := t.Query2D(context.Background(), batch, x.start, x.end, func(iv core.Interval) bool {
			ivs = append(ivs, iv)
			return true
		}); err != nil {
			return err
		}
		core.SortIntervals(ivs)
		for _, k := range batch {
			i, _ := slices.BinarySearchFunc(ivs, k, func(iv core.Interval, k core.Key) int { return int(iv.Key) - int(k) })
			ch, entry = changes{starts: ch.starts[:0], vals: ch.vals[:0]}, nil
			summarised := true
			for ; i < len(ivs) && ivs[i].Key == k; i++ {
				v, ok := core.SummaryByte(ivs[i].Value)
				summarised = summarised && ok
				ch.starts, ch.vals = append(ch.starts, ivs[i].Start), append(ch.vals, v)
			}
			if summarised && len(ch.starts) > 0 {
				entry = enc.encode(ch, x.end, x.levels)
			}
			got, _, err := x.entry(k)
			if err != nil {
				return err
			}
			if !bytes.Equal(got, entry) {
				return fmt.Errorf("%w: summary of key %d differs from its intervals", ErrCorrupt, k)
			}
		}
	}
	return nil
}
