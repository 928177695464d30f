package history

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"

	"github.com/tracetui/tracetui/core"
)

// The summaries' build side. emit passes every interval here; for the keys
// Options.Summarise names, a record (the key's slot, the interval's end as
// a delta from the previous record's, its value) is appended to a change
// log spilled to a temporary file beside the index: intervals reach emit
// by non-decreasing end, so the delta takes a byte or two, and a record 3
// to 6 bytes. In memory the build keeps 4 bytes per summarised key (its
// record count) and a bit per key. At Close, when the history's span and
// so the grid are known, the log is read back in batches of keys
// (summary_write.go) and every level is computed exactly from each key's
// intervals (summary_levels.go).

const (
	sumSlotsPage     = 1 << 12
	sumDroppedBit    = 1 << 31
	sumMaxRecord     = 2*binary.MaxVarintLen64 + 1
	sumLogBuffer     = 1 << 16
	sumLogReadBuffer = 1 << 18
	sumLogSuffix     = ".lod"
	sumCountLimit    = sumDroppedBit - 1
)

// summaryBuild records the intervals of the summarised keys.
type summaryBuild struct {
	rule    func(*core.AttributeTree, core.Key) bool
	path    string // the index's, for the log's temporary name
	start   core.Time
	scanned int        // keys below it have been put to the rule
	words   []uint64   // bit per key: summarised
	ranks   []uint32   // summarised keys before each word
	counts  [][]uint32 // per slot (rank), in pages: records; sumDroppedBit: no summary
	nslots  int
	log     *os.File
	w       *bufio.Writer
	lastEnd core.Time // end of the last record
	records int64
	// batchMin is the fewest records Close reads back per batch (tests
	// lower it to split small logs).
	batchMin int64
	err      error // first write error: reported by Close
	rec      []byte
}

func newSummaryBuild(rule func(*core.AttributeTree, core.Key) bool, path string, start core.Time) *summaryBuild {
	if rule == nil {
		return nil
	}
	return &summaryBuild{rule: rule, path: path, start: start, lastEnd: start, batchMin: 1 << 16}
}

// scan puts the keys added since the last call to the rule. Keys are
// scanned in order, so slots are numbered in key order.
func (s *summaryBuild) scan(tree *core.AttributeTree) {
	for n := tree.Len(); s.scanned < n; s.scanned++ {
		k := s.scanned
		if k%64 == 0 {
			s.words = append(s.words, 0)
			s.ranks = append(s.ranks, uint32(s.nslots))
		}
		if !s.rule(tree, core.Key(k)) {
			continue
		}
		s.words[k/64] |= 1 << (k % 64)
		if s.nslots%sumSlotsPage == 0 {
			s.counts = append(s.counts, make([]uint32, sumSlotsPage))
		}
		s.nslots++
	}
}

// slotOf returns the slot of key, or -1 when it is not summarised.
func (s *summaryBuild) slotOf(key core.Key) int {
	w, bit := int(key)/64, uint(key)%64
	if s.words[w]&(1<<bit) == 0 {
		return -1
	}
	return int(s.ranks[w]) + bits.OnesCount64(s.words[w]&(1<<bit-1))
}

func (s *summaryBuild) count(slot int) *uint32 {
	return &s.counts[slot/sumSlotsPage][slot%sumSlotsPage]
}

// add records that key held v until end (emit's hook: intervals reach it
// by non-decreasing end, and each key's tile the history).
func (s *summaryBuild) add(tree *core.AttributeTree, key core.Key, end core.Time, v core.Value) {
	if s == nil || s.err != nil {
		return
	}
	if int(key) >= s.scanned {
		s.scan(tree)
	}
	slot := s.slotOf(key)
	if slot < 0 {
		return
	}
	n := s.count(slot)
	if *n&sumDroppedBit != 0 {
		return
	}
	b, ok := core.SummaryByte(v)
	if !ok || *n == sumCountLimit {
		*n = sumDroppedBit
		return
	}
	if s.log == nil {
		if s.log, s.err = createTemp(s.path, sumLogSuffix); s.err != nil {
			return
		}
		s.w = bufio.NewWriterSize(s.log, sumLogBuffer)
	}
	s.rec = binary.AppendUvarint(s.rec[:0], uint64(slot))
	s.rec = binary.AppendUvarint(s.rec, uint64(end-s.lastEnd))
	s.rec = append(s.rec, b)
	if _, err := s.w.Write(s.rec); err != nil {
		s.err = fmt.Errorf("history: write the summaries' change log: %w", err)
		return
	}
	s.lastEnd = end
	s.records++
	*n++
}

// drop removes the change log (after Close, or when the build is aborted).
func (s *summaryBuild) drop() {
	if s == nil || s.log == nil {
		return
	}
	name := s.log.Name()
	s.log.Close()
	os.Remove(name)
	s.log, s.w = nil, nil
}

// change is one interval of a key: it holds v from start on.
type change struct {
	start core.Time
	v     byte
}
