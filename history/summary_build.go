package history

import (
	"context"
	"encoding/binary"
	"math/bits"
	"runtime"

	"github.com/tracetui/tracetui/core"
)

// The summaries' build side. emit passes every interval here; for the keys
// Options.Summarise names, a record (the key's slot, the interval's end as
// a delta from the previous record's, its value) is appended to a change
// log spilled to temporary files beside the index: intervals reach emit
// by non-decreasing end, so the delta takes a byte or two, and a record 3
// to 6 bytes. In memory the build keeps 4 bytes per summarised key (its
// record count) and a bit per key. When the states end, the history's span
// and so the grid are known: the log is read back in batches of keys and
// every level is computed exactly from each key's intervals, on a goroutine
// of its own (summary_pass.go, summary_write.go, summary_levels.go).
//
// The work is split between two goroutines: the caller's (emit) finds the
// key's slot and value byte (entry: the rule reads the attribute tree,
// which only the caller may), the summaries' own (summary_pass.go)
// appends them to the log (record) and then runs the pass. Each side owns
// its fields (below); the pass reads the caller's once the queue between
// them is closed.

const (
	sumSlotsPage     = 1 << 12
	sumDroppedBit    = 1 << 31
	sumMaxRecord     = 2*binary.MaxVarintLen64 + 1
	sumLogReadBuffer = 1 << 18
	sumLogSuffix     = ".lod"
	sumCountLimit    = sumDroppedBit - 1
)

// summaryBuild records the intervals of the summarised keys.
type summaryBuild struct {
	rule  func(*core.AttributeTree, core.Key) bool
	path  string // the index's, for the log's temporary name
	start core.Time
	ctx   context.Context // cancels the pass (Options.Context)

	// The caller's side (entry).
	scanned int      // keys below it have been put to the rule
	words   []uint64 // bit per key: summarised
	ranks   []uint32 // summarised keys before each word
	nslots  int

	// The log's side (record): the summaries' goroutine.
	counts  [][]uint32 // per slot (rank), in pages: records; sumDroppedBit: no summary
	parts   []*logPart // the log, by runs of slots (summary_parts.go); nil: no record yet
	logFile *logFile   // the file holding the parts' chunks; nil: no record yet
	err     error      // first write error: reported by Close
	rec     []byte

	// partSlots, batchMax, workers and parallelFrom are sumPartSlots,
	// sumBatchMax, sumWorkersMax and sumParallelFrom (tests lower them to
	// split small logs and passes).
	partSlots    int
	batchMax     int64
	workers      int
	parallelFrom int64
	pass         *summaryPass // the pass computing the section, once started
}

// sumEntry is an interval of a summarised key on its way to the log: its
// slot, its end, its value byte (sumUnsummarisable: a value that has
// none).
type sumEntry struct {
	end  core.Time
	slot int32
	v    byte
}

// sumUnsummarisable is the value byte of a sumEntry whose value has no
// summary byte (core.SummaryByte): above every byte a summary stores.
const sumUnsummarisable = 0xFF

func newSummaryBuild(rule func(*core.AttributeTree, core.Key) bool, path string, start core.Time, ctx context.Context) *summaryBuild {
	if rule == nil || start < 0 {
		// Buckets are aligned on absolute time from 0 (core.SummaryLevels):
		// a history that starts before it has no summaries, and its frames
		// read intervals.
		return nil
	}
	return &summaryBuild{rule: rule, path: path, start: start, ctx: ctx, partSlots: sumPartSlots, batchMax: sumBatchMax,
		workers: min(sumWorkersMax, runtime.GOMAXPROCS(0)), parallelFrom: sumParallelFrom}
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

// entry returns the log entry of the interval of key that ends at end with
// value v; false when key is not summarised (the caller's side).
func (s *summaryBuild) entry(tree *core.AttributeTree, key core.Key, end core.Time, v core.Value) (sumEntry, bool) {
	if int(key) >= s.scanned {
		s.scan(tree)
	}
	slot := s.slotOf(key)
	if slot < 0 {
		return sumEntry{}, false
	}
	b, ok := core.SummaryByte(v)
	if !ok {
		b = sumUnsummarisable
	}
	return sumEntry{end: end, slot: int32(slot), v: b}, true
}

// record appends an entry to the log (the log's side: entries reach it in
// the order of emit, so by non-decreasing end, and each key's tile the
// history).
func (s *summaryBuild) record(e sumEntry) {
	if s.err != nil {
		return
	}
	slot := int(e.slot)
	for slot >= len(s.counts)*sumSlotsPage {
		s.counts = append(s.counts, make([]uint32, sumSlotsPage))
	}
	n := s.count(slot)
	if *n&sumDroppedBit != 0 {
		return
	}
	if e.v == sumUnsummarisable || *n == sumCountLimit {
		*n = sumDroppedBit
		return
	}
	if s.err = s.appendRecord(e); s.err != nil {
		return
	}
	*n++
}

// change is one interval of a key: it holds v from start on.
type change struct {
	start core.Time
	v     byte
}

// changes are a key's changes in time order, as two arrays of one
// length (the pass reads them back by batches of up to batchMax).
type changes struct {
	starts []core.Time
	vals   []byte
}
