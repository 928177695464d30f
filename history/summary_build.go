package history

import (
	"encoding/binary"
	"math/bits"

	"github.com/tracetui/tracetui/core"
)

// The summaries' build side. emit passes every interval here; for the keys
// Options.Summarise names, the interval's start and value (a change) are
// appended to one log shared by all keys, each record pointing back to the
// key's previous one. Per key the build keeps 16 bytes (the offset of its
// last record and that record's start) in pages, and the log costs 3 to 12
// bytes per change; no per-key heap object. At Close, when the history's
// span and so the grid are known, each key's changes are read back from
// the log and every level is computed exactly from them (summary_levels.go).

// sumLogPage is the size of one page of the change log. A record never
// straddles two pages (at most sumMaxRecord bytes; the rest of a page
// that cannot hold one stays unused).
const (
	sumLogPage    = 1 << 20
	sumMaxRecord  = 2*binary.MaxVarintLen64 + 1
	sumSlotsPage  = 1 << 12
	sumDroppedBit = 1 << 63
)

// sumSlot is the build state of one summarised key.
type sumSlot struct {
	last      uint64    // 1 + log offset of the key's last record (0: none); sumDroppedBit: no summary
	lastStart core.Time // start of that record
}

// summaryBuild records the changes of the summarised keys.
type summaryBuild struct {
	rule    func(*core.AttributeTree, core.Key) bool
	start   core.Time
	scanned int         // keys below it have been put to the rule
	words   []uint64    // bit per key: summarised
	ranks   []uint32    // summarised keys before each word
	slots   [][]sumSlot // by rank, in pages
	nslots  int
	log     [][]byte // pages of sumLogPage bytes
	logSize uint64   // offset of the next record
}

func newSummaryBuild(rule func(*core.AttributeTree, core.Key) bool, start core.Time) *summaryBuild {
	if rule == nil {
		return nil
	}
	return &summaryBuild{rule: rule, start: start}
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
			s.slots = append(s.slots, make([]sumSlot, sumSlotsPage))
		}
		s.nslots++
	}
}

// slotOf returns the build state of key, or nil when it is not summarised.
func (s *summaryBuild) slotOf(key core.Key) *sumSlot {
	w, bit := int(key)/64, uint(key)%64
	if s.words[w]&(1<<bit) == 0 {
		return nil
	}
	r := int(s.ranks[w]) + bits.OnesCount64(s.words[w]&(1<<bit-1))
	return &s.slots[r/sumSlotsPage][r%sumSlotsPage]
}

// add records that key holds v from start on (emit's hook; intervals of a
// key arrive in time order and tile the history).
func (s *summaryBuild) add(tree *core.AttributeTree, key core.Key, start core.Time, v core.Value) {
	if s == nil {
		return
	}
	if int(key) >= s.scanned {
		s.scan(tree)
	}
	sl := s.slotOf(key)
	if sl == nil || sl.last&sumDroppedBit != 0 {
		return
	}
	b, ok := core.SummaryByte(v)
	if !ok {
		sl.last = sumDroppedBit
		return
	}
	if sl.last == 0 && start == s.start && b == core.SummaryNull {
		return // every key starts null: implicit
	}
	if len(s.log) == 0 || sumLogPage-len(s.log[len(s.log)-1]) < sumMaxRecord {
		s.log = append(s.log, make([]byte, 0, sumLogPage))
		s.logSize = uint64(len(s.log)-1) * sumLogPage
	}
	page := len(s.log) - 1
	back := uint64(0)
	if sl.last != 0 {
		back = s.logSize - (sl.last - 1)
	}
	p := s.log[page]
	p = binary.AppendUvarint(p, back)
	p = binary.AppendUvarint(p, uint64(start-max(sl.lastStart, s.start)))
	p = append(p, b)
	s.log[page] = p
	sl.last, sl.lastStart = s.logSize+1, start
	s.logSize = uint64(page)*sumLogPage + uint64(len(p))
}

// change is one state change of a key: it holds v from start on.
type change struct {
	start core.Time
	v     byte
}

// changes returns sl's changes in time order, into buf. The first starts
// at the history's start.
func (s *summaryBuild) changes(sl *sumSlot, buf []change) []change {
	buf = buf[:0]
	for off := sl.last; off != 0; {
		at := off - 1
		p := s.log[at/sumLogPage][at%sumLogPage:]
		back, n := binary.Uvarint(p)
		delta, m := binary.Uvarint(p[n:])
		buf = append(buf, change{v: p[n+m]})
		buf[len(buf)-1].start = core.Time(delta) // relative to the previous change, fixed below
		if back == 0 {
			off = 0
		} else {
			off = at - back + 1
		}
	}
	// Reverse, and turn the deltas into times.
	for i, j := 0, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	t := s.start
	for i := range buf {
		t += buf[i].start
		buf[i].start = t
	}
	if len(buf) == 0 || buf[0].start > s.start {
		buf = append(buf, change{})
		copy(buf[1:], buf)
		buf[0] = change{start: s.start, v: core.SummaryNull}
	}
	return buf
}
